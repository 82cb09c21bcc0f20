// What a colleague sees at a deck that its owner keeps private: whose it is and what to ask for, in place
// of the editor (the deck's title and content stay hidden).
export function PrivateDeck({ owner }: { owner: { name: string; email: string } }) {
  return (
    <div className="mx-auto max-w-xl space-y-4 px-6 py-16" data-testid="private-deck">
      <h1 className="text-2xl font-semibold tracking-tight">This deck is private</h1>
      <p className="text-zinc-700">
        Only its owner, <strong className="font-semibold">{owner.name}</strong> (
        <a className="text-accent hover:underline" href={`mailto:${owner.email}`}>
          {owner.email}
        </a>
        ), can open it. Ask them to share it (Share → Who can see it → Everyone in the organization) or to send you a
        copy.
      </p>
      <p>
        <a className="font-medium text-accent hover:underline" href="/decks">
          Back to the library
        </a>
      </p>
    </div>
  );
}
