// Tailwind CSS v4 for the browser app's pages (imported by app/(app) and app/(auth) layouts only).
export default { plugins: { "@tailwindcss/postcss": {} } };
