//! The one sort the browser builds use: a heap sort is a few hundred bytes of WebAssembly, where
//! each type the standard library's sort is used with costs several kilobytes.

/// Sorts `v` by `less`, in place, in n log n steps; not stable (break ties in `less` where the
/// order of equals matters).
pub fn heap_sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let sift = |v: &mut [T], mut root: usize, end: usize| loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && less(&v[child], &v[child + 1]) {
            child += 1;
        }
        if !less(&v[root], &v[child]) {
            return;
        }
        v.swap(root, child);
        root = child;
    };
    for root in (0..v.len() / 2).rev() {
        sift(v, root, v.len());
    }
    for end in (1..v.len()).rev() {
        v.swap(0, end);
        sift(v, 0, end);
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_heap_sort_sorts() {
        let mut seed = 7u64;
        for n in [0, 1, 2, 3, 10, 257] {
            let mut v: Vec<u64> = (0..n)
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                    seed >> 58
                })
                .collect();
            let mut want = v.clone();
            want.sort();
            super::heap_sort(&mut v, |a, b| a < b);
            assert_eq!(v, want, "{n}");
        }
    }
}
