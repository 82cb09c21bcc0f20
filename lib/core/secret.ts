import "server-only";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { config } from "@/lib/core/config";

let cached: Buffer | undefined;

// The server's signing secret (preview tokens, signed download URLs). AUTH_SECRET or APP_SECRET in
// production; on one machine a random secret is made once and kept in DATA_DIR so links survive restarts.
export function serverSecret(): Buffer {
  if (cached) return cached;
  const fromEnv = config.secret;
  if (fromEnv) return (cached = Buffer.from(fromEnv, "utf8"));
  const file = path.join(config.dataDir, "secret.key");
  try {
    cached = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = randomBytes(32).toString("base64");
    try {
      fs.writeFileSync(file, secret, { flag: "wx", mode: 0o600 });
    } catch {
      // another process wrote it first: use theirs
    }
    cached = Buffer.from(fs.readFileSync(file, "utf8").trim(), "base64");
  }
  return cached;
}
