//! Copies of a run's state that reuse the room an earlier copy left: a search copies a base
//! run's state once per schedule (`sim::fork`), into the state its previous run left.

/// Implements `Clone` field by field, with a `clone_from` that copies each field into the room
/// the target already has: a vector keeps its buffer, a node its box.
macro_rules! field_clone {
    ($t:ident $(<$g:ident>)? { $($f:ident),* $(,)? }) => {
        impl$(<$g: Clone>)? Clone for $t$(<$g>)? {
            fn clone(&self) -> Self {
                $t { $($f: self.$f.clone()),* }
            }

            fn clone_from(&mut self, source: &Self) {
                $(self.$f.clone_from(&source.$f);)*
            }
        }
    };
}

/// Implements copying trait `$copy` (with `copy_box`, `copy_into`, `as_any_mut` and
/// `fingerprint`) for every cloneable, hashable `$t`, and `Clone` for `Box<dyn $t>` through it,
/// whose `clone_from` keeps the target's box when it holds the same kind: a node, or a client's
/// side of a protocol, copied state and all for a run that goes on from another run's state, and
/// hashed for a verification's fingerprint of a state.
macro_rules! box_copy {
    ($copy:ident, $t:ident) => {
        impl<T: $t + Clone + std::hash::Hash + 'static> $copy for T {
            fn copy_box(&self) -> Box<dyn $t> {
                Box::new(self.clone())
            }

            fn copy_into(&self, target: &mut Box<dyn $t>) {
                match target.as_any_mut().downcast_mut::<T>() {
                    Some(same) => same.clone_from(self),
                    None => *target = self.copy_box(),
                }
            }

            fn as_any_mut(&mut self) -> &mut dyn std::any::Any {
                self
            }

            fn fingerprint(&self) -> u128 {
                let mut h = $crate::engine::fingerprint::Fingerprint::default();
                std::hash::Hash::hash(self, &mut h);
                h.finish128()
            }
        }

        impl Clone for Box<dyn $t> {
            fn clone(&self) -> Self {
                self.copy_box()
            }

            fn clone_from(&mut self, source: &Self) {
                source.copy_into(self);
            }
        }

        impl std::hash::Hash for Box<dyn $t> {
            fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
                h.write_u128(self.fingerprint())
            }
        }
    };
}

pub(crate) use {box_copy, field_clone};
