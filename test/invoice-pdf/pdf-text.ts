/**
 * The text of an uncompressed PDF as pdfkit writes it: each text-showing operator (`[<hex> kern
 * <hex>] TJ` or `<hex> Tj`) becomes one string, its hex runs decoded as Windows-1252 (ASCII for
 * everything the tests look for) and kerning dropped.
 */
/** 0x80–0x9F of Windows-1252 (Node's own decoder treats the label as Latin-1 and keeps C1 controls). */
const C1 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ';

function windows1252(bytes: Buffer): string {
  return Array.from(bytes, (byte) => (byte >= 0x80 && byte <= 0x9f ? C1[byte - 0x80]! : String.fromCharCode(byte))).join('');
}

export function pdfTexts(pdf: Buffer): string[] {
  const source = pdf.toString('latin1');
  const texts: string[] = [];
  for (const match of source.matchAll(/\[((?:<[0-9a-fA-F]*>|\s|-?[\d.]+)*)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
    const runs = match[1] !== undefined ? [...match[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((run) => run[1]!) : [match[2]!];
    texts.push(runs.map((hex) => windows1252(Buffer.from(hex, 'hex'))).join(''));
  }
  return texts;
}

export function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
}
