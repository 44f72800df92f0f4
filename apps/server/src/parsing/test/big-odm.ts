import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const EXAMPLE = fileURLToPath(
  new URL('../../../../../fixtures/odm/examples/openedc_metadata.xml', import.meta.url),
);

/**
 * A ~5 MB CDISC ODM 1.3.2 metadata file: the OpenEDC example (fixtures/odm) with as many more
 * ItemDefs (with questions and range checks) as fit under `chars`. Importing its form F.4
 * (WHO-5) reads the whole file but creates the same small form as the example does.
 */
export function bigOdm(chars = 5 * 1024 * 1024 - 4096): string {
  const base = readFileSync(EXAMPLE, 'utf8');
  const at = base.lastIndexOf('</MetaDataVersion>');
  const item = (i: number) =>
    `<ItemDef OID="PAD.${i}" Name="Padding item ${i}" DataType="integer" Length="4">` +
    `<Question><TranslatedText xml:lang="en">Padding question ${i}</TranslatedText>` +
    `<TranslatedText xml:lang="zh">填充题目 ${i}</TranslatedText></Question>` +
    `<RangeCheck Comparator="GE" SoftHard="Hard"><CheckValue>0</CheckValue></RangeCheck></ItemDef>\n`;
  const parts: string[] = [];
  let size = base.length;
  for (let i = 1; ; i++) {
    const s = item(i);
    if (size + s.length > chars) break;
    parts.push(s);
    size += s.length;
  }
  return base.slice(0, at) + parts.join('') + base.slice(at);
}
