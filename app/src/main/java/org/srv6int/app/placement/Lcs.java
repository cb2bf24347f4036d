// SPDX-License-Identifier: Apache-2.0
package org.srv6int.app.placement;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * Longest common subsequence of two sequences under a match predicate, with
 * one optimal alignment. Plain dynamic programming, O(|a|·|b|); chains have at
 * most 6 vNFs and paths a few dozen sites, so this is cheap.
 */
public final class Lcs {

    private Lcs() {
    }

    /**
     * Returns one longest alignment of {@code a} and {@code b}: pairs
     * {i, j} (ascending in both) such that {@code match(a[i], b[j])}. Among
     * equally long alignments the one that matches each element of {@code a}
     * to the earliest possible element of {@code b} is returned, so the result
     * is deterministic.
     *
     * @param a     first sequence (the chain's vNFs)
     * @param b     second sequence (sites along a path)
     * @param match whether an element of a can be served by an element of b
     * @param <A>   type of a
     * @param <B>   type of b
     * @return index pairs; its size is the LCS length
     */
    public static <A, B> List<int[]> align(List<A> a, List<B> b, BiPredicate<A, B> match) {
        int n = a.size();
        int m = b.size();
        // suffix table: len[i][j] = LCS of a[i..] and b[j..], so the walk below goes forward
        int[][] len = new int[n + 1][m + 1];
        for (int i = n - 1; i >= 0; i--) {
            for (int j = m - 1; j >= 0; j--) {
                len[i][j] = match.test(a.get(i), b.get(j))
                        ? len[i + 1][j + 1] + 1
                        : Math.max(len[i + 1][j], len[i][j + 1]);
            }
        }
        List<int[]> pairs = new ArrayList<>();
        int i = 0;
        int j = 0;
        while (i < n && j < m) {
            if (match.test(a.get(i), b.get(j)) && len[i][j] == len[i + 1][j + 1] + 1) {
                pairs.add(new int[]{i, j});
                i++;
                j++;
            } else if (len[i][j + 1] >= len[i + 1][j]) {
                j++;
            } else {
                i++;
            }
        }
        return Collections.unmodifiableList(pairs);
    }

    /**
     * Returns the LCS length.
     *
     * @param a     first sequence
     * @param b     second sequence
     * @param match match predicate
     * @param <A>   type of a
     * @param <B>   type of b
     * @return length
     */
    public static <A, B> int length(List<A> a, List<B> b, BiPredicate<A, B> match) {
        return align(a, b, match).size();
    }
}
