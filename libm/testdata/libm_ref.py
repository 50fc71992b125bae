# Reference values of the C library's log and logf, for libm's tests.
#
# Reads lines "D <hex bits of a float64>" or "F <hex bits of a float32>"
# on stdin and writes the same line followed by the bits of log(x) (D) or
# logf(x) (F) as this machine's libm.so.6 computes them. Run under
#   GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX2,-FMA,-FMA4
# to get glibc's variants for CPUs without FMA. Needs only ctypes.
import ctypes, struct, sys

libm = ctypes.CDLL("libm.so.6")
libm.log.restype, libm.log.argtypes = ctypes.c_double, [ctypes.c_double]
libm.logf.restype, libm.logf.argtypes = ctypes.c_float, [ctypes.c_float]
libc = ctypes.CDLL("libc.so.6")
libc.gnu_get_libc_version.restype = ctypes.c_char_p
out = ["# glibc " + libc.gnu_get_libc_version().decode()]
for line in sys.stdin:
    kind, bits = line.split()
    b = int(bits, 16)
    if kind == "D":
        y = libm.log(struct.unpack("<d", struct.pack("<Q", b))[0])
        out.append("D %016x %016x" % (b, struct.unpack("<Q", struct.pack("<d", y))[0]))
    else:
        y = libm.logf(struct.unpack("<f", struct.pack("<I", b))[0])
        out.append("F %08x %08x" % (b, struct.unpack("<I", struct.pack("<f", y))[0]))
sys.stdout.write("\n".join(out) + "\n")
