// Runs in the deck's frame before the deck's module is imported: closes the ways deck code could make the
// browser open connections to other hosts although the frame's CSP forbids every request. Chromium checks
// a nested frame's or a refresh's target against the CSP only after it has started connecting to it, and
// <link rel=preconnect|dns-prefetch> is outside CSP altogether, so a deck could signal bits through the
// connections alone (a red-team pass decoded a typed password from them). No deck needs these elements: the
// player's own stylesheet <link>s are in the static document, and a deck can show nothing through a frame.
//
// An element is judged by what it is — its namespace and local name — wherever it is made: by a call
// (createElement, createElementNS, createDocument, a customized built-in's constructor, cloneNode), by a
// parser whose result deck code receives (DOMParser, XSLTProcessor, the Sanitizer API), and when a node of
// another document is taken in (importNode, adoptNode, every method that inserts nodes). Markup parsed
// straight into the document (innerHTML, insertAdjacentHTML, document.write, …) is the one case with no
// element to look at before it is live; there the Trusted Types policy refuses markup with a start tag
// naming one of these elements, with or without a namespace prefix (a start tag is how the HTML and the XML
// fragment parsers make an element; only a whole XML document can spell one through an entity, and
// DOMParser's documents are checked element by element as well).
//
// Deck code runs after this in the same realm and may replace any built-in (Set.prototype.has,
// Function.prototype.call, String, …), so everything the guards use is taken now, and an argument is
// converted once and the converted value is what the browser gets (a tag object's toString could otherwise
// say "div" to the check and "iframe" to createElement).
//
// What stays open, because no page can close it: the frame navigating itself (`location.href = …`, a
// script-clicked link). The share page's CSP refuses that navigation, but Chromium may connect first. Not
// guarded by the insertion checks: an option taken in from another document by a select's indexed setter
// (no method is called; every way to make what it could carry is guarded instead), and the player's own
// stylesheet <link>s, which stay in the document and could be changed in place.

const XHTML = "http://www.w3.org/1999/xhtml";

/** Elements whose mere presence in the document starts a connection or a navigation (XHTML namespace). */
const refusedNames = [
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
];

export function lockDown(): void {
  const { apply } = Reflect;
  const { defineProperty, getOwnPropertyDescriptor, freeze } = Object;
  const toString = String;
  const toLowerCase = String.prototype.toLowerCase;
  const indexOf = String.prototype.indexOf;
  const slice = String.prototype.slice;
  const exec = RegExp.prototype.exec;
  const NativeDOMException = DOMException;
  const ELEMENT = Node.ELEMENT_NODE;
  const DOCUMENT = Node.DOCUMENT_NODE;
  const live = document;

  // A record with no prototype: a lookup cannot be redirected.
  const refused: Record<string, true | undefined> = Object.create(null);
  for (let i = 0; i < refusedNames.length; i++) refused[refusedNames[i]!] = true;
  freeze(refused);
  const refusedTag = new RegExp(`<\\s*(?:[^\\s/>:]*:)?(?:${refusedNames.join("|")})(?=[\\s/>])`, "i");

  const refuse = (what: string): never => {
    throw new NativeDOMException(`${what} is not available to decks`, "NotSupportedError");
  };
  const lock = (target: object, name: string, value: unknown) =>
    defineProperty(target, name, { value, writable: false, configurable: false });
  const getter = (proto: object, name: string) => getOwnPropertyDescriptor(proto, name)!.get!;
  const read = <T>(get: () => T, node: unknown): T => apply(get, node, []);

  const nodeType = getter(Node.prototype, "nodeType");
  const firstChild = getter(Node.prototype, "firstChild");
  const nextSibling = getter(Node.prototype, "nextSibling");
  const parentNode = getter(Node.prototype, "parentNode");
  const ownerDocument = getter(Node.prototype, "ownerDocument");
  const namespaceURI = getter(Element.prototype, "namespaceURI");
  const localName = getter(Element.prototype, "localName");
  const shadowRoot = getter(Element.prototype, "shadowRoot");
  const templateContent = getter(HTMLTemplateElement.prototype, "content");

  const lower = (value: string): string => apply(toLowerCase, value, []);
  /** The local name of a qualified name ("h:link" → "link"). */
  const local = (qualified: string): string => {
    const colon: number = apply(indexOf, qualified, [":"]);
    return colon < 0 ? qualified : apply(slice, qualified, [colon + 1]);
  };

  /** Throws if `root` or anything under it (template contents and open shadow roots too) is refused. */
  const check = (root: Node): void => {
    let node: Node = root;
    for (;;) {
      if (read(nodeType, node) === ELEMENT) {
        if (read(namespaceURI, node) === XHTML) {
          const name = read(localName, node);
          if (refused[name]) refuse(`<${name}>`);
          if (name === "template") check(read(templateContent, node));
        }
        const shadow = read(shadowRoot, node);
        if (shadow) check(shadow);
      }
      let next = read(firstChild, node);
      while (!next) {
        if (node === root) return;
        next = read(nextSibling, node);
        if (!next) node = read(parentNode, node)!;
      }
      node = next;
    }
  };
  /** Checks the nodes among `args` that come from another document on their way into this one. */
  const checkForeign = (args: unknown[]): unknown[] => {
    for (let i = 0; i < args.length; i++) {
      const value = args[i];
      if (typeof value !== "object" || value === null) continue;
      let owner: Document | null | undefined;
      try {
        owner = read(ownerDocument, value);
      } catch {
        continue; // not a node: the browser makes it text
      }
      if (owner !== live && read(nodeType, value) !== DOCUMENT) check(value as Node);
    }
    return args;
  };

  // Wraps a method or a setter: `before` gets the arguments and returns what the browser is given (converted
  // where it matters), `after` sees the result. (No destructuring or spreading of arguments when called:
  // both go through Array.prototype[Symbol.iterator], which deck code can replace.)
  const wrap = (
    proto: object | undefined,
    name: string,
    { before, after }: { before?: (args: unknown[]) => unknown[]; after?: (result: never) => void },
  ) => {
    if (!proto) return;
    const descriptor = getOwnPropertyDescriptor(proto, name);
    if (!descriptor) return;
    const call = (native: (...args: unknown[]) => unknown) =>
      function (this: unknown, ...args: unknown[]) {
        const result = apply(native, this, before ? before(args) : args);
        if (after) after(result as never);
        return result;
      };
    if (typeof descriptor.value === "function") return lock(proto, name, call(descriptor.value));
    if (descriptor.set) defineProperty(proto, name, { ...descriptor, set: call(descriptor.set), configurable: false });
  };

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

  // The static document's <meta>s have done their work when the player runs; left in place, one could be
  // turned into a refresh.
  for (const meta of document.querySelectorAll("meta")) meta.remove();

  // Elements made by a call. (Too few arguments go to the browser as they are, for its TypeError.)
  wrap(Document.prototype, "createElement", {
    before: (args) => {
      if (args.length < 1) return args;
      const name = toString(args[0]);
      if (refused[lower(name)]) refuse(`<${lower(name)}>`);
      return [name, args[1]];
    },
  });
  // createElementNS(namespace, qualifiedName, options) and createDocument(namespace, qualifiedName, doctype).
  const namespaced = (args: unknown[]) => {
    if (args.length < 2) return args;
    const namespace = args[0] == null ? null : toString(args[0]);
    const qualifiedName = args[1] === null ? "" : toString(args[1]);
    if (namespace === XHTML && refused[local(qualifiedName)]) refuse(`<${local(qualifiedName)}>`);
    return [namespace, qualifiedName, args[2]];
  };
  wrap(Document.prototype, "createElementNS", { before: namespaced });
  wrap(DOMImplementation.prototype, "createDocument", { before: namespaced });
  // A customized built-in (`class extends HTMLIFrameElement`) is made by `new`, not by createElement.
  wrap(CustomElementRegistry.prototype, "define", {
    before: (args) => {
      const options = args[2];
      const base = options == null ? undefined : (options as { extends?: unknown }).extends;
      if (base === undefined) return [args[0], args[1]];
      const extendsName = toString(base);
      if (refused[lower(extendsName)]) refuse(`<${lower(extendsName)}>`);
      return [args[0], args[1], { extends: extendsName }];
    },
  });
  // The player's own <link>s are in the document: a copy of one is a new element.
  wrap(Node.prototype, "cloneNode", { after: check });
  wrap(Range.prototype, "cloneContents", { after: check });

  // Documents and fragments a parser made (nothing in them is live; they are refused before deck code
  // can take anything from them).
  wrap(DOMParser.prototype, "parseFromString", { after: check });
  const xslt = (window as { XSLTProcessor?: { prototype: object } }).XSLTProcessor;
  wrap(xslt?.prototype, "transformToFragment", { after: check });
  wrap(xslt?.prototype, "transformToDocument", { after: check });
  // The Sanitizer API parses without Trusted Types: whatever configuration the deck passes, the sanitizer
  // used also removes these elements.
  const NativeSanitizer = (window as { Sanitizer?: new (config?: unknown) => object }).Sanitizer;
  if (NativeSanitizer) {
    const configOf = NativeSanitizer.prototype.get as () => unknown;
    const removeElement = (NativeSanitizer.prototype as { removeElement: (name: object) => boolean }).removeElement;
    const sanitized = {
      before: (args: unknown[]) => {
        const options = args[1];
        const given = options == null ? undefined : (options as { sanitizer?: unknown }).sanitizer;
        let config: unknown = given ?? "default";
        try {
          config = apply(configOf, given, []);
        } catch {
          // not a Sanitizer: a configuration or a preset's name
        }
        const sanitizer = new NativeSanitizer(config);
        for (let i = 0; i < refusedNames.length; i++)
          apply(removeElement, sanitizer, [{ name: refusedNames[i], namespace: XHTML }]);
        return [args[0], { sanitizer }];
      },
    };
    wrap(Element.prototype, "setHTML", sanitized);
    wrap(ShadowRoot.prototype, "setHTML", sanitized);
    wrap(Document, "parseHTML", sanitized);
  } else {
    const unavailable = { before: () => refuse("The Sanitizer API") };
    wrap(Element.prototype, "setHTML", unavailable);
    wrap(ShadowRoot.prototype, "setHTML", unavailable);
    wrap(Document, "parseHTML", unavailable);
  }

  // Nodes of another document taken into this one.
  wrap(Document.prototype, "importNode", { after: check });
  wrap(Document.prototype, "adoptNode", { before: (args) => (check(args[0] as Node), args) });
  for (const [proto, names] of [
    [Node.prototype, ["appendChild", "insertBefore", "replaceChild"]],
    [
      Element.prototype,
      ["append", "prepend", "replaceChildren", "moveBefore", "before", "after", "replaceWith", "insertAdjacentElement"],
    ],
    [Document.prototype, ["append", "prepend", "replaceChildren", "moveBefore", "body"]],
    [DocumentFragment.prototype, ["append", "prepend", "replaceChildren", "moveBefore"]],
    [CharacterData.prototype, ["before", "after", "replaceWith"]],
    [DocumentType.prototype, ["before", "after", "replaceWith"]],
    [Range.prototype, ["insertNode", "surroundContents"]],
    [HTMLTableElement.prototype, ["caption", "tHead", "tFoot"]],
    [HTMLSelectElement.prototype, ["add"]],
    [HTMLOptionsCollection.prototype, ["add"]],
  ] as const)
    for (const name of names) wrap(proto, name, { before: checkForeign });

  // Markup parsed into the document (innerHTML, insertAdjacentHTML, document.write, srcdoc, …): the frame's
  // CSP requires Trusted Types, and this default policy, which only the player can create (the CSP allows
  // one policy, named "default"), is what every string passed to those sinks goes through. It reads no
  // argument but the markup: deck code can call it too (trustedTypes.defaultPolicy.createHTML), naming any
  // sink, and use what it answers anywhere.
  const trustedTypes = (window as { trustedTypes?: { createPolicy: (name: string, rules: object) => unknown } })
    .trustedTypes;
  trustedTypes?.createPolicy("default", {
    createHTML: (html: string) => {
      if (apply(exec, refusedTag, [html]) !== null) refuse("Markup with frames, <link>, <meta> or <base>");
      return html;
    },
    // Scripts come only from the player and the deck's module (script-src); strings are never scripts.
    createScript: () => null,
    createScriptURL: () => null,
  });
}
