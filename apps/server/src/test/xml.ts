import { execFileSync } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The CDISC ODM 1.3.2 schema (fixtures/odm). */
export const ODM_XSD = fileURLToPath(new URL('../../../../fixtures/odm/ODM1-3-2.xsd', import.meta.url));

/** Whether xmllint (Debian: libxml2-utils) is installed, for the tests that check a file only where it is. */
export const hasXmllint = (() => {
  try {
    execFileSync('xmllint', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

/**
 * Writes the XML to a file of its own and validates it with xmllint against the schema (ODM 1.3.2
 * unless another is named); throws, failing the test, when it does not. The file, for `xpath`.
 */
export async function validXml(xml: string | Buffer, xsd = ODM_XSD): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'xml-'));
  const file = path.join(dir, 'file.xml');
  await writeFile(file, xml);
  execFileSync('xmllint', ['--noout', '--schema', xsd, file], { stdio: 'pipe' });
  return file;
}

/** What xmllint answers for the XPath expression over the file, without its last line break. */
export const xpath = (file: string, expr: string) =>
  execFileSync('xmllint', ['--xpath', expr, file], { stdio: 'pipe' }).toString().replace(/\n$/, '');
