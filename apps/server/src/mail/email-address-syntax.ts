import { domainToASCII } from "node:url";

/** RFC 5321's longest forward path less its angle brackets. */
export const maximumEmailAddressLength = 254;

// Django's `EmailValidator` (what allauth checks addresses with): a dot-atom before the @, with every character RFC 5322
// allows there; after it, labels of at most 63 letters, digits and inner hyphens, and a last label of at least two.
const dotAtomLocalPart = /^[-!#$%&'*+/=?^_`{}|~0-9A-Z]+(\.[-!#$%&'*+/=?^_`{}|~0-9A-Z]+)*$/i;
const domainName = /^(?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+[A-Z0-9-]{2,63}(?<!-)$/i;

/**
 * Whether `address` is an e-mail address as Django's `EmailValidator` reads one: `o'brien@example.com`, `a+b@xn--bcher-kva.ch`
 * and `anna@bücher.ch` (its domain written in Punycode, as Django does) are; `a..b@example.com`, `a@b` and `a b@c.ch`
 * are not. `localhost` is allowed as a domain, as in Django. Unlike Django, a quoted local part (`"a b"@c.ch`) and an
 * address literal (`a@[127.0.0.1]`) are refused: they carry spaces and control characters into mail headers, and no
 * mail provider hands them out.
 *
 * @example
 * isValidEmailAddress("o'brien@example.com"); // true
 */
export function isValidEmailAddress(address: string): boolean {
  if (address.length > maximumEmailAddressLength) return false;
  const at = address.lastIndexOf("@");
  if (at <= 0 || at === address.length - 1) return false;
  const localPart = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (!dotAtomLocalPart.test(localPart)) return false;
  if (domain.toLowerCase() === "localhost" || domainName.test(domain)) return true;
  // An internationalized domain, as Django tries it again in Punycode.
  const asciiDomain = /^[\x21-\x7e]*$/.test(domain) ? "" : domainToASCII(domain);
  return asciiDomain !== "" && domainName.test(asciiDomain);
}
