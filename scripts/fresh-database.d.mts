export function withFreshDatabase<T>(prefix: string, run: (url: string) => Promise<T> | T): Promise<T>;
export function cloneDatabase(templateUrl: string, name: string): Promise<string>;
