// Runs in the deck's frame before the deck's module is imported: closes the ways deck code could make the
// browser open connections to other hosts although the frame's CSP forbids every request. Chromium checks
// a nested frame's or a refresh's target against the CSP only after it has started connecting to it, and
// <link rel=preconnect|dns-prefetch> is outside CSP altogether, so a deck could signal bits through the
// connections alone (a red-team pass decoded a typed password from them). No deck needs these elements: the
// player's own <link>s and <meta>s are in the static document, and a deck can show nothing through a frame.
//
// What stays open, because no page can close it: the frame navigating itself (`location.href = …`, a
// script-clicked link). The share page's CSP refuses that navigation, but Chromium may connect first.

/** Elements whose mere presence in the document starts a connection or a navigation. */
const refusedElements = new Set([
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "portal",
  "fencedframe",
  "meta",
  "link",
  "base",
]);

const refusedTag = new RegExp(`<\\s*(?:${[...refusedElements].join("|")})(?=[\\s/>])`, "i");

function refuse(what: string): never {
  throw new DOMException(`${what} is not available to decks`, "NotSupportedError");
}

function lock(target: object, name: string, value: unknown) {
  Object.defineProperty(target, name, { value, writable: false, configurable: false });
}

export function lockDown(): void {
  // WebRTC is outside CSP's reach (STUN/TURN would let a deck beacon out).
  for (const name of [
    "RTCPeerConnection",
    "webkitRTCPeerConnection",
    "RTCDataChannel",
    "RTCSessionDescription",
    "RTCIceCandidate",
  ]) {
    try {
      lock(window, name, undefined);
    } catch {
      // already locked down
    }
  }

  // Elements made through the DOM API.
  const createElement = Document.prototype.createElement;
  const createElementNS = Document.prototype.createElementNS;
  lock(Document.prototype, "createElement", function (this: Document, tag: string, options?: ElementCreationOptions) {
    if (refusedElements.has(String(tag).toLowerCase())) refuse(`<${String(tag).toLowerCase()}>`);
    return createElement.call(this, tag, options);
  });
  lock(
    Document.prototype,
    "createElementNS",
    function (this: Document, ns: string | null, name: string, options?: ElementCreationOptions) {
      const local = String(name).split(":").pop()!.toLowerCase();
      if (refusedElements.has(local)) refuse(`<${local}>`);
      return createElementNS.call(this, ns, name, options as string | ElementCreationOptions);
    },
  );

  // Elements made from markup (innerHTML, insertAdjacentHTML, document.write, DOMParser, srcdoc, …): the
  // frame's CSP requires Trusted Types, and this default policy, which only the player can create (the CSP
  // allows one policy, named "default"), is what every string passed to those sinks goes through.
  const trustedTypes = (window as { trustedTypes?: { createPolicy: (name: string, rules: object) => unknown } })
    .trustedTypes;
  trustedTypes?.createPolicy("default", {
    createHTML: (html: string) => {
      if (refusedTag.test(html)) refuse("Markup with frames, <link>, <meta> or <base>");
      return html;
    },
    // Scripts come only from the player and the deck's module (script-src); strings are never scripts.
    createScript: () => null,
    createScriptURL: () => null,
  });
}
