/**
 * A whole number with its thousands grouped by commas ("10,000"), as `toLocaleString('en')`
 * writes it, without Intl: the server's first use of Intl reads ICU's locale data from Node's
 * binary, about 4 MB of the process's memory for one sentence (docs/benchmarks.md, 29 November).
 */
export function withThousands(n: number): string {
  const [whole, fraction] = String(n).split('.');
  const grouped = (whole ?? '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return fraction === undefined ? grouped : `${grouped}.${fraction}`;
}
