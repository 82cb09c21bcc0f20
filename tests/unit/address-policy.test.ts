import { describe, expect, it } from "vitest";
import {
  ALLOW_HOSTS_HINT,
  checkResolvedAddresses,
  checkUrl,
  classifyAddress,
  classifyAddressForHost,
  isAllowedHost,
  parseAllowHosts,
} from "@/lib/net/address-policy";

// [address, expected range]
const refusedAddresses: [string, string][] = [
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback"],
  ["::1", "loopback"],
  ["[::1]", "loopback"],
  ["10.0.0.5", "private"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.168.1.1", "private"],
  ["fc00::1", "uniqueLocal"],
  ["fd00::1", "uniqueLocal"],
  ["169.254.169.254", "metadata"],
  ["169.254.1.1", "linkLocal"],
  ["fe80::1", "linkLocal"],
  ["fe80::1%eth0", "linkLocal"],
  ["100.64.0.1", "carrierGradeNat"],
  ["100.127.255.255", "carrierGradeNat"],
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["::", "unspecified"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "multicast"],
  ["ff02::1", "multicast"],
  ["255.255.255.255", "broadcast"],
  ["240.0.0.1", "reserved"],
  ["192.0.2.1", "reserved"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.9", "reserved"],
  ["198.18.0.1", "reserved"],
  ["192.0.0.8", "reserved"],
  ["2001:db8::1", "reserved"],
  ["2001:2::1", "benchmarking"],
  ["fec0::1", "deprecatedSiteLocal"],
  ["100::1", "discard"],
  ["4000::1", "reserved"],
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["[::ffff:10.0.0.1]", "private"],
  ["::ffff:169.254.169.254", "metadata"],
  ["::127.0.0.1", "ipv4Compatible"],
  ["::a00:1", "ipv4Compatible"],
  ["::8.8.8.8", "ipv4Compatible"],
  ["::ffff:0:7f00:1", "rfc6145"],
  ["64:ff9b::a00:1", "nat64"],
  ["64:ff9b::127.0.0.1", "nat64"],
  ["64:ff9b:1::808:808", "nat64"],
  ["2002:7f00:1::", "6to4"],
  ["2002:a9fe:a9fe::1", "6to4"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "teredo"],
  ["not-an-ip", "invalid"],
  ["", "invalid"],
];

const allowedAddresses = [
  "8.8.8.8",
  "1.1.1.1",
  "93.184.216.34",
  "172.32.0.1",
  "100.128.0.1",
  "2606:4700:4700::1111",
  "[2a00:1450:4001:80b::200e]",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

describe("classifyAddress refuses", () => {
  it.each(refusedAddresses)("%s (%s)", (address, range) => {
    const verdict = classifyAddress(address);
    expect(verdict.allowed).toBe(false);
    if (verdict.allowed) return;
    expect(verdict.range).toBe(range);
    expect(verdict.message).toContain("only public websites can be fetched");
  });

  it("describes embedded addresses", () => {
    const verdict = classifyAddress("64:ff9b::a00:1");
    expect(!verdict.allowed && verdict.description).toBe("a NAT64 address embedding 10.0.0.1, a private address");
    const mapped = classifyAddress("::ffff:127.0.0.1");
    expect(!mapped.allowed && mapped.description).toBe("an IPv4-mapped form of 127.0.0.1, a loopback address");
  });
});

describe("classifyAddress allows public unicast", () => {
  it.each(allowedAddresses)("%s", (address) => {
    expect(classifyAddress(address)).toEqual({ allowed: true });
  });
});

// [url, reason]
const refusedUrls: [string, string][] = [
  ["http://127.0.0.1/", "address"],
  ["http://127.1/", "address"],
  ["http://0x7f.0.0.1/", "address"],
  ["http://0x7f000001/", "address"],
  ["http://0177.0.0.1/", "address"],
  ["http://2130706433/", "address"],
  ["http://127.000.000.001/", "address"],
  ["http://127.0.0.1.:8080/", "address"],
  ["http://%31%32%37.0.0.1/", "address"],
  ["http://0/", "address"],
  ["http://0.0.0.0/", "address"],
  ["http://[::]/", "address"],
  ["http://[::1]:3000/", "address"],
  ["http://[::ffff:7f00:1]/", "address"],
  ["http://[::ffff:127.0.0.1]/", "address"],
  ["http://[::127.0.0.1]/", "address"],
  ["http://[fd00::1]/", "address"],
  ["http://[fe80::1]/", "address"],
  ["http://[::ffff:10.0.0.1]/", "address"],
  ["http://[64:ff9b::a00:1]/", "address"],
  ["http://[64:ff9b::10.0.0.1]/", "address"],
  ["http://[2002:7f00:1::]/", "address"],
  ["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "address"],
  ["http://169.254.169.254/latest/meta-data/", "address"],
  ["http://[::ffff:169.254.169.254]/", "address"],
  ["https://10.0.0.5/", "address"],
  ["https://172.16.5.4:8443/", "address"],
  ["http://192.168.0.1/", "address"],
  ["http://100.64.1.1/", "address"],
  ["http://224.0.0.251/", "address"],
  ["http://255.255.255.255/", "address"],
  ["http://192.0.2.10/", "address"],
  ["ftp://example.com/logo.png", "scheme"],
  ["file:///etc/passwd", "scheme"],
  ["javascript:alert(1)", "scheme"],
  ["gopher://example.com:70/_GET", "scheme"],
  ["data:text/html,<h1>x</h1>", "scheme"],
  ["ws://example.com/", "scheme"],
  ["http://user:pass@example.com/", "credentials"],
  ["https://user@example.com/", "credentials"],
  ["https://:secret@example.com/", "credentials"],
  ["not a url", "invalid_url"],
  ["http://", "invalid_url"],
  ["http://1.2.3.256/", "invalid_url"],
];

describe("checkUrl refuses", () => {
  it.each(refusedUrls)("%s (%s)", (url, reason) => {
    const result = checkUrl(url);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe(reason);
    expect(result.message.length).toBeGreaterThan(20);
  });

  it("with an actionable message", () => {
    expect(checkUrl("https://10.0.0.5/")).toEqual({
      ok: false,
      reason: "address",
      message: `https://10.0.0.5/ resolves to 10.0.0.5, a private address; only public websites can be fetched. ${ALLOW_HOSTS_HINT}`,
    });
    const metadata = checkUrl("http://169.254.169.254/latest/meta-data/");
    expect(!metadata.ok && metadata.message).toContain("the cloud metadata address");
  });
});

describe("checkUrl accepts", () => {
  it.each([
    ["https://example.com/", false],
    ["http://EXAMPLE.com:8080/a?b=c#d", false],
    ["http://localhost./", false],
    ["http://fixture.test:3000/", false],
    ["http://8.8.8.8/", true],
    ["https://1.1.1.1/dns-query", true],
    ["http://[2606:4700:4700::1111]/", true],
    ["http://134744072/", true],
  ] as const)("%s (names still need their addresses checked)", (url, hostIsIp) => {
    const result = checkUrl(url);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.hostIsIp).toBe(hostIsIp);
  });
});

describe("isAllowedHost", () => {
  const list = parseAllowHosts(" Fixture.test , api.local:8080,,127.0.0.1,[::1]:3000,localhost:3000 ");

  it("parses FETCH_ALLOW_HOSTS", () => {
    expect(list).toEqual(["fixture.test", "api.local:8080", "127.0.0.1", "[::1]:3000", "localhost:3000"]);
    expect(parseAllowHosts(undefined)).toEqual([]);
  });

  it.each([
    ["fixture.test", "80", true],
    ["FIXTURE.test.", "1234", true],
    ["api.local", "8080", true],
    ["api.local", "80", false],
    ["localhost", "3000", true],
    ["localhost", "3001", false],
    ["sub.fixture.test", "80", false],
    ["fixture.test.evil.com", "80", false],
    ["127.0.0.1", "80", false],
    ["[::1]", "3000", false],
    ["::1", "3000", false],
    ["example.com", "443", false],
  ] as const)("%s:%s → %s", (hostname, port, expected) => {
    expect(isAllowedHost(hostname, port, list)).toBe(expected);
  });
});

describe("allow-listed names", () => {
  it.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["192.168.1.20", true],
    ["fd12::1", true],
    ["::1", true],
    ["169.254.169.254", false],
    ["169.254.10.1", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["64:ff9b::7f00:1", false],
  ] as const)("may reach %s: %s", (address, expected) => {
    expect(classifyAddressForHost(address, true).allowed).toBe(expected);
    expect(classifyAddressForHost(address, false).allowed).toBe(false);
  });
});

describe("checkResolvedAddresses", () => {
  it("refuses when any address is not public, whichever comes first", () => {
    expect(checkResolvedAddresses(["93.184.216.34", "127.0.0.1"], false)).toMatchObject({
      ok: false,
      address: "127.0.0.1",
    });
    expect(checkResolvedAddresses(["169.254.169.254", "93.184.216.34"], true)).toMatchObject({
      ok: false,
      address: "169.254.169.254",
    });
    expect(checkResolvedAddresses(["127.0.0.1", "169.254.169.254"], true)).toMatchObject({ ok: false });
    expect(checkResolvedAddresses([], false)).toMatchObject({ ok: false });
  });

  it("returns the first address when all are acceptable", () => {
    expect(checkResolvedAddresses(["2606:4700:4700::1111", "1.1.1.1"], false)).toEqual({
      ok: true,
      address: "2606:4700:4700::1111",
    });
    expect(checkResolvedAddresses(["127.0.0.1", "::1"], true)).toEqual({ ok: true, address: "127.0.0.1" });
  });
});
