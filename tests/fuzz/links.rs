//! Mutations of share links: truncated, with characters flipped or foreign ones put in, grown
//! past the size a link may have, and decompression bombs (a block that claims, or really
//! unpacks to, far more than a scenario may be).

use super::rng::Rng;

/// The characters a link's payload is written in.
const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Writes bytes after a link's version prefix, as the app's links are written (URL-safe
/// base64 without padding).
fn base64(prefix: &str, bytes: &[u8]) -> String {
    let mut s = String::from(prefix);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            s.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    s
}

/// Mutates a valid link into one of the kinds a reader must refuse, or into another valid one.
pub fn mutate_link(rng: &mut Rng, link: &str) -> String {
    let prefix = link.split_once('.').map_or("1.", |(v, _)| &link[..=v.len()]).to_string();
    let mut chars: Vec<char> = link.chars().collect();
    match rng.below(8) {
        // Cut short.
        0 => chars.truncate(rng.below(chars.len() + 1)),
        // A character changed to another of the alphabet: the block or the text inside breaks.
        1 | 2 => {
            for _ in 0..1 + rng.below(3) {
                let at = prefix.len() + rng.below(chars.len().saturating_sub(prefix.len()).max(1));
                if at < chars.len() {
                    chars[at] = char::from(*rng.pick(ALPHABET));
                }
            }
        }
        // A character no link has.
        3 => {
            let at = rng.below(chars.len() + 1);
            chars.insert(at, *rng.pick(&['%', ' ', '=', '/', 'é', '\u{0}', '.', '#']));
        }
        // Grown past what a link may hold.
        4 => {
            let more: Vec<char> = chars[prefix.len().min(chars.len())..].to_vec();
            for _ in 0..1 + rng.below(40) {
                chars.extend(&more);
            }
        }
        // A block that claims to unpack to far more than a scenario may be.
        5 => {
            let claim = [0xff, 0xff, 0xff, 0x7f, 0x1f, 0x00];
            return base64(&prefix, &claim);
        }
        // A block that really unpacks to 16 MiB of one byte.
        6 => {
            static BOMB: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
            return base64(&prefix, BOMB.get_or_init(|| lz4_flex::block::compress_prepend_size(&vec![b' '; 16 << 20])));
        }
        // Another version.
        _ => return format!("{}{}", rng.below(10), &link[prefix.len() - 1..]),
    }
    chars.into_iter().collect()
}
