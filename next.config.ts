import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native binaries and WASM runtimes stay in node_modules instead of the server bundle
  // (esbuild's binary breaks the bundler; PGlite loads its own data files).
  serverExternalPackages: ["esbuild", "@electric-sql/pglite", "pg", "@neondatabase/serverless", "ws"],
  poweredByHeader: false,
  reactStrictMode: true,
};

export default nextConfig;
