package dev.panamaverbs.it.device;

import dev.panamaverbs.onesided.OneSidedChannel;
import dev.panamaverbs.onesided.RemoteWindow;
import dev.panamaverbs.onesided.Window;
import dev.panamaverbs.onesided.WindowDescriptor;
import dev.panamaverbs.testkit.RcLoopbackPair;
import dev.panamaverbs.testkit.TestDevice;

/**
 * The two sides of {@link OneSidedDeviceTest}: a channel on each queue pair of an RC loop-back
 * pair, each side's 64 KiB buffer as its window, and the target window opened from its
 * descriptor's bytes, as a real peer would.
 *
 * @param pair     the connected queue pairs and their buffers
 * @param sender   the channel on the first queue pair
 * @param receiver the channel on the second
 * @param source   the first buffer as a window
 * @param target   the second buffer as a window
 * @param remote   the target as the sender sees it
 */
record OneSidedSides(RcLoopbackPair pair, OneSidedChannel sender, OneSidedChannel receiver, Window source, Window target,
        RemoteWindow remote) implements AutoCloseable {

    static OneSidedSides open(TestDevice device) {
        RcLoopbackPair pair = RcLoopbackPair.open(device);
        try {
            Window target = Window.of(pair.secondBuffer().region());
            return new OneSidedSides(pair, OneSidedChannel.open(pair.first()), OneSidedChannel.open(pair.second()),
                    Window.of(pair.firstBuffer().region()), target,
                    RemoteWindow.open(WindowDescriptor.fromBytes(target.descriptor().toBytes())));
        } catch (RuntimeException e) {
            pair.close();
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            sender.close();
            receiver.close();
        } finally {
            pair.close();
        }
    }
}
