import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Whether an address is an ordinary public unicast one. ipaddr.js names every special range
 * (private, loopback, link-local, carrier-grade NAT 100.64/10, multicast, unspecified 0.0.0.0 and ::,
 * broadcast, unique-local, reserved, documentation, 6to4, NAT64...); only `unicast` passes.
 * IPv4-mapped IPv6 (`::ffff:127.0.0.1`) is judged as the IPv4 address it carries.
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'unicast';
}

/** Raised from the connect-time lookup; the downloader turns it into ASSET_UPLOAD_FAILED. */
export class BlockedAddressError extends Error {
  constructor(
    readonly host: string,
    readonly address: string,
  ) {
    super(`${host} resolves to ${address}, which is not a public address`);
    this.name = 'BlockedAddressError';
  }
}

/**
 * A `lookup` for node:http(s) that resolves as usual, then refuses the connection when any of
 * the host's addresses is not allowed. It runs for every connection, so every redirect hop and
 * every DNS answer (including a rebinding one) is checked at the moment of connecting.
 */
export function guardedLookup(isAllowed: (address: string) => boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const blocked = addresses.find((entry) => !isAllowed(entry.address));
      if (blocked) return callback(new BlockedAddressError(hostname, blocked.address), '', 0);
      if (addresses.length === 0)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}
