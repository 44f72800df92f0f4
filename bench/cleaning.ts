/**
 * Data cleaning (issue 18): 100,000 clinical documents of about 1 KB cleaned with 50 rules by the
 * engine of @crdp/core (sections, sentences, every rule on every sentence, qualifiers, units,
 * value checks), against the same 50 regular expressions alone run over each whole document in a
 * loop (matchAll, nothing else), in the same run. Prints documents/s of each and
 * `ratio=<engine time / regexes alone>`.
 *
 * Documents: 2,000 distinct admission notes and discharge summaries from templates with random
 * values (both sides read the same texts in the same order), cycled to 100,000.
 * Run: `npx tsx bench/cleaning.ts` (CLEANING_BENCH_DOCS=20000 for a shorter run).
 */
import {
  builtinRuleSources,
  type CleaningRuleDefinition,
  type CleaningRuleSource,
  cleanDocument,
  cleaningRuleDefinition,
  compileRules,
} from '../packages/core/src/index.js';

const DOCS = Number(process.env.CLEANING_BENCH_DOCS ?? 100_000);
const DISTINCT = 2_000;
const RULES = 50;

function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const rand = prng(20261127);
const int = (a: number, b: number) => a + Math.floor(rand() * (b - a + 1));
const one = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;

/** Lab items of the generated rules and notes: trigger words, unit, plausible range. */
const LABS: [string, string[], string, number, number][] = [
  ['CREA', ['肌酐', 'Cr'], 'μmol/L', 20, 1500],
  ['ALB', ['白蛋白', 'ALB'], 'g/L', 10, 60],
  ['TBIL', ['总胆红素', 'TBIL'], 'μmol/L', 1, 800],
  ['DBIL', ['直接胆红素', 'DBIL'], 'μmol/L', 0, 500],
  ['GGT', ['谷氨酰转肽酶', 'GGT'], 'U/L', 1, 3000],
  ['ALP', ['碱性磷酸酶', 'ALP'], 'U/L', 10, 3000],
  ['GLU', ['血糖', 'GLU'], 'mmol/L', 1, 40],
  ['HGB', ['血红蛋白', 'HGB', 'Hb'], 'g/L', 20, 250],
  ['PLT', ['血小板', 'PLT'], '', 1, 2000],
  ['WBC', ['白细胞', 'WBC'], '', 0.1, 200],
  ['INR', ['INR', '国际标准化比值'], '', 0.5, 10],
  ['PT', ['凝血酶原时间', 'PT'], '', 5, 100],
  ['AFP', ['甲胎蛋白', 'AFP'], '', 0, 100000],
  ['HBsAg', ['HBsAg定量', '乙肝表面抗原定量'], '', 0, 100000],
  ['K', ['血钾', 'K+'], 'mmol/L', 1, 10],
  ['NA', ['血钠', 'Na+'], 'mmol/L', 100, 180],
  ['UA', ['尿酸', 'UA'], 'μmol/L', 50, 1200],
  ['TG', ['甘油三酯', 'TG'], 'mmol/L', 0.1, 30],
  ['TC', ['总胆固醇', 'TC'], 'mmol/L', 0.5, 30],
  ['LDL', ['低密度脂蛋白', 'LDL-C'], 'mmol/L', 0.1, 15],
  ['HDL', ['高密度脂蛋白', 'HDL-C'], 'mmol/L', 0.1, 5],
  ['CRP', ['C反应蛋白', 'CRP'], 'mg/L', 0, 500],
  ['PCT', ['降钙素原', 'PCT'], '', 0, 200],
  ['BNP', ['脑钠肽', 'BNP'], '', 0, 50000],
  ['TSH', ['促甲状腺激素', 'TSH'], '', 0, 100],
  ['HBA1C', ['糖化血红蛋白', 'HbA1c'], '%', 3, 20],
  ['SPO2', ['血氧饱和度', 'SpO2'], '%', 50, 100],
  ['RESP', ['呼吸', 'R'], '次/分', 5, 60],
  ['HEIGHT', ['身高'], 'cm', 40, 230],
  ['LIVER', ['肝脏肋下'], 'cm', 0, 20],
];
const FINDINGS = ['黄疸', '乏力', '纳差', '腹痛', '腹胀', '恶心', '呕吐', '咳嗽', '胸闷', '头晕'];

function rules(): CleaningRuleSource[] {
  const out: CleaningRuleSource[] = builtinRuleSources().map((b) => ({
    ref: b.ref,
    name: b.name,
    definition: b.definition,
  }));
  const def = (d: unknown) => cleaningRuleDefinition.parse(d) as CleaningRuleDefinition;
  for (const [code, triggers, unit, min, max] of LABS) {
    if (out.length >= RULES - FINDINGS.length) break;
    const latin = triggers.every((t) => /^[A-Za-z+-]+$/.test(t));
    out.push(
      out.length % 5 === 0
        ? {
            ref: `rule:${out.length}`,
            name: code,
            definition: def({
              kind: 'regex',
              pattern: `${triggers[0]}[:：]?\\s?(?<v>\\d{1,5}(?:\\.\\d{1,2})?)\\s?(?<u>[A-Za-zμ/%]{1,8})?`,
              unitGroup: 'u',
              outputs: [{ code, name: triggers[0], unit, min, max, group: 'v' }],
            }),
          }
        : {
            ref: `rule:${out.length}`,
            name: code,
            definition: def({
              kind: 'syntactic',
              triggers,
              value: 'number',
              requireUnit: latin && triggers[0]!.length < 3,
              outputs: [{ code, name: triggers[0], unit, min, max }],
            }),
          },
    );
  }
  for (const f of FINDINGS)
    out.push({
      ref: `rule:${out.length}`,
      name: f,
      definition: def({
        kind: 'syntactic',
        triggers: [f],
        window: 1,
        value: 'presence',
        outputs: [{ code: `F_${out.length}`, name: f }],
      }),
    });
  return out.slice(0, RULES);
}

function document(): string {
  const labs = Array.from({ length: 8 }, () => {
    const [, triggers, unit, min, max] = one(LABS);
    return `${one(triggers)} ${(min + rand() * (max - min)).toFixed(1)}${unit}`;
  }).join('，');
  const finding = () => `${one(['', '否认', '无', '考虑', '偶有'])}${one(FINDINGS)}`;
  const hbv = one(['1.2×10^5 IU/ml', `${int(1, 9)}.${int(0, 9)}E+0${int(2, 7)} IU/mL`, '<20 IU/mL']);
  return [
    one(['入院记录', '出院小结']),
    `主诉：${one(FINDINGS)}、${one(FINDINGS)}${int(1, 12)}月，加重${int(1, 7)}天。`,
    `现病史：患者${int(1, 12)}月前无明显诱因出现${one(FINDINGS)}，伴${finding()}，${finding()}。${int(2, 9)}天前${finding()}，外院查HBV-DNA ${hbv}，ALT ${int(10, 900)}U/L，AST ${int(10, 700)}U/L。为进一步诊治收入我科。`,
    `既往史：否认高血压、糖尿病、冠心病病史，否认结核等传染病史，否认手术外伤史，否认输血史，否认药物过敏史。`,
    `个人史：生于原籍，无疫区居住史，无吸烟饮酒嗜好。`,
    `体格检查：T ${(36 + rand() * 3).toFixed(1)}℃，P ${int(55, 130)}次/分，R ${int(12, 30)}次/分，BP ${int(90, 190)}/${int(50, 110)}mmHg。神志清，皮肤巩膜${finding()}，双肺呼吸音清，心律齐，腹软，${finding()}，${one(['左', '右', '双'])}下肢${one(['无', '轻度'])}水肿。`,
    `辅助检查：${labs}。腹部超声：肝脏${one(['回声增粗', '形态正常'])}，${one(['少量', '未见'])}腹水。`,
    `初步诊断：1.慢性乙型病毒性肝炎 2.肝功能异常`,
  ].join('\n');
}

const pool = Array.from({ length: DISTINCT }, document);
const bytes = pool.reduce((n, d) => n + Buffer.byteLength(d), 0) / pool.length;
const compiled = compileRules(rules());
const regexes = compiled.map((c) => new RegExp(c.find.source, c.find.flags.replace('d', '')));

function timed(label: string, work: (doc: string) => number) {
  let found = 0;
  const t = performance.now();
  for (let i = 0; i < DOCS; i++) found += work(pool[i % DISTINCT]!);
  const ms = performance.now() - t;
  console.log(
    `${label}: ${DOCS} documents in ${(ms / 1000).toFixed(2)} s, ${Math.round(DOCS / (ms / 1000))} documents/s, ${found} matches`,
  );
  return ms;
}

console.log(
  `${DOCS} documents (${DISTINCT} distinct, ${Math.round(bytes)} bytes on average), ${compiled.length} rules`,
);
// Warm both paths up so the JIT has compiled them before either is timed.
for (const d of pool.slice(0, 200)) {
  cleanDocument(compiled, d);
  for (const r of regexes) for (const _ of d.matchAll(r));
}
const reference = timed('regexes alone', (doc) => {
  let n = 0;
  for (const r of regexes) for (const _ of doc.matchAll(r)) n++;
  return n;
});
const ours = timed('cleaning engine', (doc) => cleanDocument(compiled, doc).extractions.length);
console.log(`ratio=${(ours / reference).toFixed(2)}`);
