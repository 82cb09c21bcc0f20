import type { ReactNode } from "react";
import "../tailwind.css";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <main className="flex min-h-screen items-center justify-center px-4 py-16">
      <div className="w-full max-w-sm space-y-6">
        <a href="/" className="block text-center text-xl font-bold tracking-tight text-zinc-900">
          Deckhand
        </a>
        {children}
      </div>
    </main>
  );
}
