import { hash, verify } from "@node-rs/argon2";

// Passwords of the browser app's email sign-in: argon2id with the OWASP minimum profile
// (19 MiB, 2 iterations, 1 lane), the library's defaults. The encoded hash carries its parameters.

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 256;

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

// A fixed hash to verify against when the user does not exist, so sign-in takes as long either way.
const DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$MF9mksIEHxNSnckkPrFB8w$BqDWEWh7Y0LCAHGqZ37tfHgexcwEOAn31bJ+xiI3Sqc";

export async function verifyPassword(encoded: string | null, password: string): Promise<boolean> {
  try {
    return await verify(encoded ?? DUMMY_HASH, password);
  } catch {
    return false;
  }
}
