//! Base64 (RFC 4648): the one encoder of the workspace. Standard with padding ([`base64`]: the
//! export's data URLs and CSP hashes, the server's CSP) and unpadded URL-safe
//! ([`base64_url`]: share-link tokens).

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Standard base64 with padding (RFC 4648 §4).
pub fn base64(bytes: &[u8]) -> String {
    encode(bytes, STANDARD, true)
}

/// Unpadded URL-safe base64 (RFC 4648 §5).
pub fn base64_url(bytes: &[u8]) -> String {
    encode(bytes, URL_SAFE, false)
}

/// `bytes` in `alphabet`, three bytes to four characters; a last group of one or two bytes
/// gives two or three, then `=` to four when `pad`.
fn encode(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..=chunk.len() {
            out.push(char::from(alphabet[((n >> (18 - 6 * i)) & 63) as usize]));
        }
        if pad {
            for _ in chunk.len()..3 {
                out.push('=');
            }
        }
    }
    out
}
