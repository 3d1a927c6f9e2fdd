import bcrypt from 'bcrypt'

/** GoTrue's cost (Go's bcrypt.DefaultCost): hashes stay interchangeable with Supabase's. */
export const BCRYPT_COST = 10
/** bcrypt reads 72 bytes at most; GoTrue refuses longer passwords rather than silently cutting them. */
export const MAX_PASSWORD_BYTES = 72

/** Hashing runs on libuv's thread pool (the native binding), not on the event loop. */
export const hashPassword = (password: string): Promise<string> => bcrypt.hash(password, BCRYPT_COST)

/** Compared against when the account does not exist, so a wrong email costs as long as a wrong password. */
let decoy: Promise<string> | null = null

export async function passwordMatches(password: string, hash: string | null): Promise<boolean> {
  if (!hash) {
    decoy ??= hashPassword('not a password of anyone')
    await bcrypt.compare(password, await decoy)
    return false
  }
  return bcrypt.compare(password, hash)
}
