package dev.panamaverbs.generator;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads the exported functions of a 64-bit little-endian ELF shared library and the default
 * ({@code @@}) symbol version of each, from .dynsym, .gnu.version and .gnu.version_d, the
 * way {@code dlsym} would resolve an unversioned lookup. No binutils needed.
 */
public final class ElfSymbolVersions {
    /** Version index 1 means "global, unversioned". */
    private static final String UNVERSIONED = "";
    private static final int SHT_DYNSYM = 11;
    private static final int SHT_GNU_VERDEF = 0x6ffffffd;
    private static final int SHT_GNU_VERSYM = 0x6fffffff;
    private static final int STT_FUNC = 2;
    private static final int STB_GLOBAL = 1;
    private static final int STB_WEAK = 2;
    private static final int VER_FLG_BASE = 1;
    private static final int VERSYM_HIDDEN = 0x8000;
    private static final int VERSYM_INDEX_MASK = 0x7fff;

    private final Map<String, String> defaultVersions;

    private ElfSymbolVersions(Map<String, String> defaultVersions) {
        this.defaultVersions = defaultVersions;
    }

    /** Exported (defined, global or weak) function name to its default version, sorted by name. */
    public Map<String, String> defaultVersions() {
        return defaultVersions;
    }

    /** The default version of {@code function}, "" if unversioned, or null if not exported. */
    public String versionOf(String function) {
        return defaultVersions.get(function);
    }

    public static ElfSymbolVersions read(Path library) throws IOException {
        ByteBuffer elf = ByteBuffer.wrap(Files.readAllBytes(library)).order(ByteOrder.LITTLE_ENDIAN);
        if (elf.getInt(0) != 0x464c457f || elf.get(4) != 2 || elf.get(5) != 1) {
            throw new IOException(library + " is not a 64-bit little-endian ELF file");
        }
        long shoff = elf.getLong(0x28);
        int shentsize = Short.toUnsignedInt(elf.getShort(0x3a));
        int shnum = Short.toUnsignedInt(elf.getShort(0x3c));

        Section dynsym = null;
        Section versym = null;
        Section verdef = null;
        Section[] sections = new Section[shnum];
        for (int i = 0; i < shnum; i++) {
            int h = Math.toIntExact(shoff + (long) i * shentsize);
            Section s = new Section(elf.getInt(h + 4), Math.toIntExact(elf.getLong(h + 24)),
                    Math.toIntExact(elf.getLong(h + 32)), elf.getInt(h + 40), elf.getInt(h + 44),
                    Math.toIntExact(elf.getLong(h + 56)));
            sections[i] = s;
            switch (s.type) {
                case SHT_DYNSYM -> dynsym = s;
                case SHT_GNU_VERSYM -> versym = s;
                case SHT_GNU_VERDEF -> verdef = s;
                default -> { }
            }
        }
        if (dynsym == null) {
            throw new IOException(library + " has no .dynsym section");
        }
        Section dynstr = sections[dynsym.link];

        Map<Integer, String> versionNames = new TreeMap<>();
        if (verdef != null) {
            Section verdefStrings = sections[verdef.link];
            int entry = verdef.offset;
            for (int i = 0; i < verdef.info; i++) {
                int flags = Short.toUnsignedInt(elf.getShort(entry + 2));
                int index = Short.toUnsignedInt(elf.getShort(entry + 4));
                int aux = entry + elf.getInt(entry + 12);
                if ((flags & VER_FLG_BASE) == 0) {
                    versionNames.put(index, cString(elf, verdefStrings.offset + elf.getInt(aux)));
                }
                int next = elf.getInt(entry + 16);
                if (next == 0) {
                    break;
                }
                entry += next;
            }
        }

        Map<String, String> versions = new TreeMap<>();
        int count = dynsym.size / dynsym.entsize;
        for (int i = 1; i < count; i++) {
            int sym = dynsym.offset + i * dynsym.entsize;
            int info = Byte.toUnsignedInt(elf.get(sym + 4));
            int shndx = Short.toUnsignedInt(elf.getShort(sym + 6));
            int bind = info >> 4;
            if ((info & 0xf) != STT_FUNC || shndx == 0 || (bind != STB_GLOBAL && bind != STB_WEAK)) {
                continue;
            }
            String name = cString(elf, dynstr.offset + elf.getInt(sym));
            String version = UNVERSIONED;
            if (versym != null) {
                int v = Short.toUnsignedInt(elf.getShort(versym.offset + i * 2));
                if ((v & VERSYM_HIDDEN) != 0) {
                    continue; // a non-default (name@VERSION) compatibility entry
                }
                version = versionNames.getOrDefault(v & VERSYM_INDEX_MASK, UNVERSIONED);
            }
            versions.put(name, version);
        }
        return new ElfSymbolVersions(versions);
    }

    private record Section(int type, int offset, int size, int link, int info, int entsize) {}

    private static String cString(ByteBuffer buf, int offset) {
        int end = offset;
        while (buf.get(end) != 0) {
            end++;
        }
        byte[] bytes = new byte[end - offset];
        buf.get(offset, bytes);
        return new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
    }
}
