// Where to go after signing in: only a path of this app (never another origin), else the library.
export function safeNextPath(value: string | undefined | null): string {
  return value && /^\/(?!\/)[\w\-./?=&%#]*$/.test(value) ? value : "/decks";
}
