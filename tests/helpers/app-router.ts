import fs from "node:fs";
import path from "node:path";

// Routes requests to the app's route handlers the way Next.js does: app/**/route.ts, with [param] and
// [...catchAll] segments, static segments winning over dynamic ones. Lets tests send real Requests to the
// real handlers without a build.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each route declares its own params
type Handler = (req: Request, ctx: { params: Promise<any> }) => Response | Promise<Response>;
type Route = { pattern: RegExp; names: string[]; rank: number[]; file: string };

const appDir = path.resolve("app");

function findRouteFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return findRouteFiles(full);
    return entry.name === "route.ts" ? [full] : [];
  });
}

export const routes: Route[] = findRouteFiles(appDir)
  .map((file) => {
    const segments = path.relative(appDir, path.dirname(file)).split(path.sep).filter(Boolean);
    const names: string[] = [];
    const rank: number[] = [];
    const pattern = segments
      .map((segment) => {
        const catchAll = /^\[\.\.\.(\w+)\]$/.exec(segment);
        const param = /^\[(\w+)\]$/.exec(segment);
        if (catchAll) {
          names.push(catchAll[1]!);
          rank.push(2);
          return "/(.+)";
        }
        if (param) {
          names.push(param[1]!);
          rank.push(1);
          return "/([^/]+)";
        }
        rank.push(0);
        return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
      })
      .join("");
    return { pattern: new RegExp(`^${pattern || "/"}$`), names, rank, file };
  })
  .sort((a, b) => {
    for (let i = 0; i < Math.max(a.rank.length, b.rank.length); i++) {
      const diff = (a.rank[i] ?? -1) - (b.rank[i] ?? -1);
      if (diff !== 0) return diff;
    }
    return 0;
  });

export async function dispatch(req: Request): Promise<Response> {
  const pathname = new URL(req.url).pathname;
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params = Object.fromEntries(
      route.names.map((name, i) => {
        const value = decodeURIComponent(match[i + 1]!);
        return [name, route.rank.includes(2) && i === route.names.length - 1 ? value.split("/") : value];
      }),
    );
    const module = (await import(route.file)) as Partial<Record<string, Handler>>;
    const handler = module[req.method];
    if (!handler) return new Response(null, { status: 405 });
    return handler(req, { params: Promise.resolve(params) });
  }
  return new Response("Not found", { status: 404 });
}
