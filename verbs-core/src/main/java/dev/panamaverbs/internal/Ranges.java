package dev.panamaverbs.internal;

/** The one range check of the API's arguments, with the message every verb uses. */
public final class Ranges {
    private Ranges() {}

    /**
     * Throws unless {@code min <= value <= max}.
     *
     * @throws IllegalArgumentException "{@code prefix}: {@code field} must be in min..max, got value"
     */
    public static void require(String prefix, String field, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(prefix + ": " + field + " must be in " + min + ".." + max + ", got " + value);
        }
    }
}
