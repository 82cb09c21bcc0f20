import type { ReactNode } from "react";
import { signOutAction } from "@/server/actions/auth";
import { ActionButton } from "@/components/app/action-button";
import { OrganizationSwitcher } from "@/components/app/organization-switcher";
import { requireAppContext } from "@/server/context";
import "../tailwind.css";

// The signed-in app's frame: navigation, the organization being worked in, and the account menu.
export default async function AppLayout({ children }: { children: ReactNode }) {
  const { user, organization, memberships } = await requireAppContext();
  const nav = [
    { href: "/decks", label: "Library" },
    { href: "/brands", label: "Brands" },
    { href: "/settings/keys", label: "API keys" },
    { href: "/settings/members", label: "Members" },
  ];
  return (
    // A page that marks its root `data-fills-viewport` (the editor) gets exactly the height the header
    // leaves, whatever the header's height: it scrolls inside its own panels, never the page.
    <div className="min-h-screen has-[[data-fills-viewport]]:flex has-[[data-fills-viewport]]:h-dvh has-[[data-fills-viewport]]:flex-col">
      {/* The first tab stop: past the header's links to the page itself (the editor, the library). */}
      <a
        href="#main"
        className="sr-only rounded-md bg-white px-3 py-2 text-sm font-medium text-accent shadow focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to main content
      </a>
      <header className="border-b border-zinc-200 bg-white">
        {/* On a phone the navigation takes a row of its own under the name and the account. */}
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3 sm:flex-nowrap sm:px-6">
          <a href="/decks" className="text-base font-bold tracking-tight">
            Deckhand
          </a>
          <nav
            aria-label="Main"
            className="order-last -mx-3 flex w-full gap-1 overflow-x-auto sm:order-none sm:mx-0 sm:w-auto"
          >
            {nav.map((item) => (
              <a
                key={item.href}
                href={item.href}
                className="rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap text-zinc-700 hover:bg-zinc-100 focus-visible:outline-2 focus-visible:outline-accent"
              >
                {item.label}
              </a>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-3">
            <OrganizationSwitcher current={organization.organizationId} memberships={memberships} />
            <span className="hidden text-sm text-zinc-600 sm:inline" title={user.email}>
              {user.name ?? user.email}
            </span>
            <ActionButton action={signOutAction} label="Sign out" variant="ghost" />
          </div>
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="has-[[data-fills-viewport]]:flex has-[[data-fills-viewport]]:min-h-0 has-[[data-fills-viewport]]:flex-1 has-[[data-fills-viewport]]:flex-col"
      >
        {children}
      </main>
    </div>
  );
}
