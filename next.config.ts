import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native binaries and WASM runtimes stay in node_modules instead of the server bundle
  // (esbuild's binary breaks the bundler; PGlite loads its own data files).
  serverExternalPackages: [
    "esbuild",
    "@electric-sql/pglite",
    "pg",
    "@neondatabase/serverless",
    "ws",
    "puppeteer-core",
    "@sparticuz/chromium",
    "@node-rs/argon2",
    "wawoff2",
  ],
  // @sparticuz/chromium finds its Brotli archives (bin/) at run time, which file tracing cannot see: on
  // Vercel every server function may render (exports, checks, preview images), so each gets them.
  outputFileTracingIncludes: { "/**/*": ["./node_modules/@sparticuz/chromium/bin/**"] },
  poweredByHeader: false,
  // Server actions carry what the API carries: a 1 MB deck source or Markdown import, with JSON's escaping.
  // 21 MB: the editor's image upload sends up to ASSET_MAX_BYTES (15 MB by default) as base64; every other
  // action's input is held to the API's own limits by its schema.
  experimental: { serverActions: { bodySizeLimit: "21mb" } },
  reactStrictMode: true,
  async headers() {
    return [
      {
        // The player's assets are content-hashed, and deck frames (opaque origin) fetch them in CORS mode.
        source: "/player/:path*",
        headers: [
          { key: "Access-Control-Allow-Origin", value: "*" },
          { key: "Cross-Origin-Resource-Policy", value: "cross-origin" },
          { key: "Cache-Control", value: "public, max-age=31536000, immutable" },
          { key: "X-Content-Type-Options", value: "nosniff" },
        ],
      },
    ];
  },
};

export default nextConfig;
