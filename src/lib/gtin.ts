/** True when `code` is a GTIN-8/12/13/14 (EAN/UPC) whose last digit is the correct check digit. */
export function isValidGtin(code: string): boolean {
  if (!/^(\d{8}|\d{12}|\d{13}|\d{14})$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = digits.pop()!;
  // Weights 3,1,3,1… from the rightmost data digit.
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/** Appends the check digit to GTIN data digits (for fixtures and demo data). */
export function withGtinCheckDigit(data: string): string {
  for (let d = 0; d <= 9; d++) if (isValidGtin(`${data}${d}`)) return `${data}${d}`;
  throw new Error(`no check digit for ${data}`);
}

/**
 * The GTIN-8/12/13/14 spellings of the trade item a scanned code of 8 to 14 digits names: the code zero-padded to
 * 14 digits, and that with its leading zeros dropped down to each shorter GTIN length (a UPC-A `036000291452` is the
 * EAN-13 `0036000291452`). Check digits are not verified.
 */
export function gtinForms(code: string): string[] {
  const padded = code.padStart(14, '0');
  return [8, 12, 13, 14].filter((length) => /^0*$/.test(padded.slice(0, 14 - length))).map((length) => padded.slice(14 - length));
}
