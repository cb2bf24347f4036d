// SPDX-License-Identifier: Apache-2.0
package org.srv6int.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Big-endian reads over either a byte array or a ByteBuffer (absolute gets, so
 * the buffer's position is never touched). Base of the flyweight views.
 */
abstract class BufferView {

    // Big-endian multi-byte reads from byte[] with one bounds check each (hot path).
    private static final VarHandle SHORT_BE =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_BE =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_BE =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    byte[] array;
    ByteBuffer buffer;
    /** Absolute index of the first byte of the wrapped region. */
    int base;
    /** Absolute index one past the last byte of the wrapped region. */
    int limit;

    final void setArray(byte[] a, int off, int len) {
        array = a;
        buffer = null;
        base = off;
        limit = off + len;
    }

    final void setBuffer(ByteBuffer b, int off, int len) {
        if (b.hasArray()) {
            setArray(b.array(), b.arrayOffset() + off, len);
        } else {
            array = null;
            buffer = b;
            base = off;
            limit = off + len;
        }
    }

    /** True when [off, off+len) is a valid region of the given capacity (no overflow). */
    static boolean inBounds(int capacity, int off, int len) {
        return off >= 0 && len >= 0 && off <= capacity - len;
    }

    final int u8(int i) {
        byte[] a = array;
        return a != null ? a[i] & 0xFF : buffer.get(i) & 0xFF;
    }

    final int u16(int i) {
        byte[] a = array;
        if (a != null) {
            return (short) SHORT_BE.get(a, i) & 0xFFFF;
        }
        return ((buffer.get(i) & 0xFF) << 8) | (buffer.get(i + 1) & 0xFF);
    }

    final int u24(int i) {
        return (u8(i) << 16) | u16(i + 1);
    }

    final long u32(int i) {
        byte[] a = array;
        if (a != null) {
            return (int) INT_BE.get(a, i) & 0xFFFFFFFFL;
        }
        return ((long) u16(i) << 16) | u16(i + 2);
    }

    final long u48(int i) {
        return ((long) u16(i) << 32) | u32(i + 2);
    }

    final long u64(int i) {
        byte[] a = array;
        if (a != null) {
            return (long) LONG_BE.get(a, i);
        }
        return (u32(i) << 32) | u32(i + 4);
    }

    final void copy(int i, byte[] dst, int dstOff, int len) {
        if (array != null) {
            System.arraycopy(array, i, dst, dstOff, len);
        } else {
            for (int k = 0; k < len; k++) {
                dst[dstOff + k] = buffer.get(i + k);
            }
        }
    }
}
