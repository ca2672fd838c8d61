package dev.panamaverbs;

import dev.panamaverbs.values.AsyncEventType;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.EnumSet;
import org.junit.jupiter.api.Test;

class AsyncEventTest {
    @Test
    void everyEventTypeNamesTheRightElement() {
        EnumSet<AsyncEventType> qp = EnumSet.of(AsyncEventType.QP_FATAL, AsyncEventType.QP_REQ_ERR,
                AsyncEventType.QP_ACCESS_ERR, AsyncEventType.COMM_EST, AsyncEventType.SQ_DRAINED,
                AsyncEventType.PATH_MIG, AsyncEventType.PATH_MIG_ERR, AsyncEventType.QP_LAST_WQE_REACHED);
        EnumSet<AsyncEventType> port = EnumSet.of(AsyncEventType.PORT_ACTIVE, AsyncEventType.PORT_ERR,
                AsyncEventType.LID_CHANGE, AsyncEventType.PKEY_CHANGE, AsyncEventType.SM_CHANGE,
                AsyncEventType.CLIENT_REREGISTER, AsyncEventType.GID_CHANGE);
        for (AsyncEventType type : AsyncEventType.values()) {
            AsyncEvent.Element expected;
            if (qp.contains(type)) {
                expected = AsyncEvent.Element.QUEUE_PAIR;
            } else if (port.contains(type)) {
                expected = AsyncEvent.Element.PORT;
            } else {
                expected = switch (type) {
                    case CQ_ERR -> AsyncEvent.Element.COMPLETION_QUEUE;
                    case SRQ_ERR, SRQ_LIMIT_REACHED -> AsyncEvent.Element.SHARED_RECEIVE_QUEUE;
                    case WQ_FATAL -> AsyncEvent.Element.WORK_QUEUE;
                    case DEVICE_FATAL -> AsyncEvent.Element.DEVICE;
                    default -> throw new AssertionError("unclassified " + type);
                };
            }
            assertEquals(expected, AsyncEvent.elementOf(type.value()), type.name());
        }
    }

    @Test
    void unknownEventTypeIsAboutTheDevice() {
        assertEquals(AsyncEvent.Element.DEVICE, AsyncEvent.elementOf(9999));
    }

}
