/**
 * Whether a host name or address is this machine: `localhost`, IPv4 127/8, IPv6 `::1`, or an
 * IPv4 loopback address mapped into IPv6. Brackets around an IPv6 address are allowed.
 */
export function isLoopback(host: string): boolean {
  const bare = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/^::ffff:/, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}
