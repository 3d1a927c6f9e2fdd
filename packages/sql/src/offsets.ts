/**
 * Offset conversions. The Postgres parser reports statement locations in UTF-8 bytes and error
 * cursors in characters (code points), while JavaScript strings and the editor count UTF-16
 * units; any non-ASCII text before a position makes them differ.
 */

/** Maps UTF-8 byte offsets of `text` to UTF-16 indices. */
export function utf8OffsetMapper(text: string): (byteOffset: number) => number {
  const byteStarts: number[] = []
  let bytes = 0
  for (let i = 0; i < text.length; i++) {
    byteStarts.push(bytes)
    const code = text.codePointAt(i)!
    if (code > 0xffff) {
      // The low surrogate shares its pair's bytes.
      byteStarts.push(bytes)
      i++
      bytes += 4
    } else {
      bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : 3
    }
  }
  return (byteOffset) => {
    if (byteOffset >= bytes) return text.length
    if (byteOffset <= 0) return 0
    // Binary search for the first index whose byte start reaches the offset.
    let lo = 0
    let hi = byteStarts.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (byteStarts[mid]! < byteOffset) lo = mid + 1
      else hi = mid
    }
    return lo
  }
}

/** Converts a code point offset in `text` to a UTF-16 index. */
export function codePointOffsetToIndex(text: string, codePoints: number): number {
  let index = 0
  for (let n = 0; n < codePoints && index < text.length; n++) {
    index += text.codePointAt(index)! > 0xffff ? 2 : 1
  }
  return index
}
