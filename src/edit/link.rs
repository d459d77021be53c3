//! Share links: a whole scenario document in a URL hash. The compact JSON is compressed with
//! LZ4 and written in URL-safe base64 after a version prefix (`1.`). A link is read back with
//! the same limits and checks as a file, and every problem names itself.

use crate::error::ScenarioError;
use crate::limits::{MAX_FILE_BYTES, MAX_LINK_CHARS};
use crate::present::number::group_u;
use crate::scenario::json::{self, Value};

/// The prefix of the links this build writes and reads.
pub const VERSION: &str = "1.";

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

fn err(problem: impl Into<String>) -> ScenarioError {
    ScenarioError::new("link", problem)
}

/// Writes a scenario's document as link text, or says that it is too long for a link.
pub fn encode(doc: &Value) -> Result<String, ScenarioError> {
    encode_as(doc, "scenario")
}

/// Writes a document as link text, or says that it is too long for a link; `what` names what
/// the document is (a scenario, a course) in the error.
pub fn encode_as(doc: &Value, what: &str) -> Result<String, ScenarioError> {
    pack(crate::scenario::json::write(doc, None).as_bytes(), what)
}

/// Compresses text and writes it after the version prefix.
fn pack(text: &[u8], what: &str) -> Result<String, ScenarioError> {
    let bytes = lz4_flex::block::compress_prepend_size(text);
    let mut s = String::with_capacity(VERSION.len() + bytes.len() * 4 / 3 + 4);
    s.push_str(VERSION);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            s.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
        }
    }
    if s.len() > MAX_LINK_CHARS {
        return Err(err(format!(
            "this {what} makes a link of {} characters, and links hold at most {}: export it as a file instead",
            group_u(s.len() as u64),
            group_u(MAX_LINK_CHARS as u64)
        )));
    }
    Ok(s)
}

/// Reads a scenario's link text back into its document; the error says what is wrong with the link.
pub fn decode(text: &str) -> Result<Value, ScenarioError> {
    decode_as(text, "scenario")
}

/// Reads link text back into a document; the error says what is wrong with the link, naming
/// what it carries as `what` (a scenario, a course).
pub fn decode_as(text: &str, what: &str) -> Result<Value, ScenarioError> {
    if text.len() > MAX_LINK_CHARS {
        return Err(err(format!(
            "the link is {} characters long; at most {} are read (a longer {what} is shared as a file)",
            group_u(text.len() as u64),
            group_u(MAX_LINK_CHARS as u64)
        )));
    }
    let Some(body) = text.strip_prefix(VERSION) else {
        return Err(err(match text.split_once('.') {
            Some((v, _)) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                format!("the link is format version {v}; this version of Lockstep reads version {}", &VERSION[..1])
            }
            _ => format!("the link's {what} is not in a form Lockstep writes (it should start with “1.”)"),
        }));
    };
    let mut bytes = Vec::with_capacity(body.len() * 3 / 4);
    let (mut n, mut bits) = (0u32, 0);
    for (i, c) in body.bytes().enumerate() {
        let Some(v) = ALPHABET.iter().position(|&a| a == c) else {
            return Err(err(format!("the link has a character base64 does not use at position {}", i + VERSION.len() + 1)));
        };
        n = n << 6 | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push((n >> bits) as u8);
        }
    }
    let broken = || err(format!("the link is cut short or damaged: its {what} cannot be unpacked"));
    let (size, packed) = lz4_flex::block::uncompressed_size(&bytes).map_err(|_| broken())?;
    if size > MAX_FILE_BYTES {
        return Err(err(format!("the link unpacks to {} bytes; at most {MAX_FILE_BYTES} (1 MiB) are read", group_u(size as u64))));
    }
    let json = lz4_flex::block::decompress(packed, size).map_err(|_| broken())?;
    if json.len() != size {
        return Err(broken());
    }
    let json = String::from_utf8(json).map_err(|_| err(format!("the link's {what} is not UTF-8 text")))?;
    json::parse(&json).map_err(|e| err(format!("the link's {what} is not JSON: {}", e.problem)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_whose_text_is_not_json_says_so() {
        let problem = decode(&pack(b"{not json", "scenario").unwrap()).unwrap_err().to_string();
        assert_eq!(problem, "link: the link's scenario is not JSON: key must be a string at line 1 column 2");
        let problem = decode(&pack(&[b'"', 0xff, b'"'], "scenario").unwrap()).unwrap_err().to_string();
        assert_eq!(problem, "link: the link's scenario is not UTF-8 text");
    }
}
