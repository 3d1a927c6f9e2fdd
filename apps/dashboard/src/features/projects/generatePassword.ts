const LOWER = 'abcdefghijkmnopqrstuvwxyz'
const UPPER = 'ABCDEFGHJKLMNPQRSTUVWXYZ'
const DIGITS = '23456789'
const ALL = LOWER + UPPER + DIGITS

function pick(alphabet: string, random: number): string {
  return alphabet[random % alphabet.length]!
}

/**
 * A strong random password from the browser's CSPRNG. Letters and digits only, so it can be
 * pasted into a connection URI or a shell without escaping; look-alikes (l, I, O, 0, 1) are left out.
 */
export function generatePassword(length = 24): string {
  const random = crypto.getRandomValues(new Uint32Array(length))
  const chars = Array.from(random, (value) => pick(ALL, value))
  // Guarantee each class once so strength hints never call a generated password weak.
  chars[0] = pick(LOWER, random[0]!)
  chars[1] = pick(UPPER, random[1]!)
  chars[2] = pick(DIGITS, random[2]!)
  // Shuffle (Fisher-Yates) so the guaranteed characters are not always first.
  const order = crypto.getRandomValues(new Uint32Array(length))
  for (let i = length - 1; i > 0; i--) {
    const j = order[i]! % (i + 1)
    ;[chars[i], chars[j]] = [chars[j]!, chars[i]!]
  }
  return chars.join('')
}
