import { parseNationalId, randomNationalId, seededRandom } from '@crdp/core';
import { searchTextOf } from '../bigrams.js';
import { abnormalFlagOf } from '../records.js';
import {
  CITIES,
  COMORBID,
  COURSES,
  type Course,
  DRUGS,
  GIVEN_FEMALE,
  GIVEN_MALE,
  LABS,
  type LabCode,
  NON_DRUG,
  STREETS,
  SURNAMES,
} from './vocab.js';

/** Rows of every CDR table for a batch, keyed like the Drizzle tables. */
export interface Batch {
  patients: Array<Record<string, unknown>>;
  visits: Array<Record<string, unknown>>;
  diagnoses: Array<Record<string, unknown>>;
  allergies: Array<Record<string, unknown>>;
  orders: Array<Record<string, unknown>>;
  labResults: Array<Record<string, unknown>>;
  examReports: Array<Record<string, unknown>>;
  operations: Array<Record<string, unknown>>;
  physicalExams: Array<Record<string, unknown>>;
  vitalSigns: Array<Record<string, unknown>>;
  documents: Array<Record<string, unknown>>;
}
export const emptyBatch = (): Batch => ({
  patients: [],
  visits: [],
  diagnoses: [],
  allergies: [],
  orders: [],
  labResults: [],
  examReports: [],
  operations: [],
  physicalExams: [],
  vitalSigns: [],
  documents: [],
});

/** Every date is relative to this fixed day, so a seed gives the same data whenever it runs. */
const ANCHOR = Date.UTC(2025, 5, 30);
const DAY = 86_400_000;
const HOUR = 3_600_000;
/** Vital signs are taken at 2, 6, 10, 14, 18 and 22 o'clock (Beijing time), as on a paper chart. */
const CHART_HOURS = [2, 6, 10, 14, 18, 22];

/**
 * The four doctors of a department (a fixed roster from the department's name, so every run
 * names the same people) and the one in charge of a visit: no draw from the random stream, which
 * keeps every other generated value as it was.
 */
function doctorOf(department: string, visitId: number): string {
  let h = 0;
  for (const ch of department) h = (h * 31 + ch.codePointAt(0)!) >>> 0;
  const k = (h + (visitId % 4) * 7) >>> 0;
  const given = k % 2 ? GIVEN_FEMALE : GIVEN_MALE;
  return `${SURNAMES[k % SURNAMES.length]}${given[(k >>> 3) % given.length]}${given[(k >>> 7) % given.length]}`;
}

export interface PatientIds {
  patientId: number;
  /** Hands out reserved visit ids. */
  nextVisitId: () => number;
}

/**
 * One synthetic patient with a liver-disease course (hepatitis B or C, cirrhosis, liver cancer,
 * fatty liver) or hypertension: visits, diagnoses, ALT/AST/TBIL/ALB/AFP/HBV-DNA series, orders,
 * imaging, operations, inpatient vital signs every 4 hours with events, and notes in Chinese.
 * Deterministic in (seed, index).
 */
export function generatePatient(seed: number, index: number, appId: number, ids: PatientIds, out: Batch) {
  const r = seededRandom((seed * 1_000_003 + index * 7919) ^ 0x5bd1e995);
  const pick = <T>(xs: readonly T[]): T => xs[Math.min(xs.length - 1, Math.floor(r() * xs.length))]!;
  const between = (lo: number, hi: number) => lo + r() * (hi - lo);
  const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
  const src = `syn-${seed}-${index}`;

  const age = Math.floor(between(18, 85));
  const birth = new Date(ANCHOR - age * 365.25 * DAY - between(0, 364) * DAY);
  const birthDate = birth.toISOString().slice(0, 10);
  const nationalId = randomNationalId(r, { birthDate });
  const gender = parseNationalId(nationalId)?.gender ?? 1;
  const name =
    pick(SURNAMES) +
    pick(gender === 1 ? GIVEN_MALE : GIVEN_FEMALE) +
    (r() < 0.6 ? pick(gender === 1 ? GIVEN_MALE : GIVEN_FEMALE) : '');
  const phone = `1${pick(['38', '39', '50', '58', '86', '87'])}${String(Math.floor(r() * 1e8)).padStart(8, '0')}`;
  const pid = ids.patientId;
  out.patients.push({
    id: pid,
    appId,
    mrn: `S${seed}-${String(index).padStart(7, '0')}`,
    name,
    gender,
    birthDate,
    nationalId,
    phone,
    address: `${pick(CITIES)}${pick(STREETS)}${Math.floor(between(1, 300))}号`,
    contacts: [
      {
        name: pick(SURNAMES) + pick(GIVEN_FEMALE),
        relation: pick(['配偶', '子女', '父母']),
        phone: `139${String(Math.floor(r() * 1e8)).padStart(8, '0')}`,
      },
    ],
    source: 'synthetic',
    sourceId: src,
  });

  // The course: liver disease for most, sometimes progressing to cirrhosis and cancer.
  const course: Course = r() < 0.85 ? pick(COURSES.slice(0, 5)) : COURSES[5]!;
  const viral = course.key === 'hbv' || course.key === 'hcv';
  const stages: Course[] = [course];
  if (viral && r() < 0.35) stages.push(COURSES[2]!);
  if (stages.length > 1 && r() < 0.4) stages.push(COURSES[3]!);
  const comorbidPick = pick(COMORBID);
  const comorbid = r() < 0.3 && comorbidPick.icd10 !== course.icd10 ? comorbidPick : null;
  // One body per patient: a height, and a weight that drifts slowly from visit to visit (and
  // falls with cirrhosis and cancer), never two unrelated numbers on one stay.
  const height = Math.floor(gender === 1 ? between(160, 182) : between(150, 170));
  const bmi = course.key === 'nafld' ? between(25, 31) : between(19, 27);
  let weight = bmi * (height / 100) ** 2;
  // Labs and vital signs that match the diagnoses: blood pressure with hypertension, glucose with
  // diabetes, platelets with thrombocytopenia; a resting pulse of the patient's own.
  const hypertensive = course.key === 'hypertension' || comorbid?.icd10 === 'I10';
  const diabetic = comorbid?.icd10 === 'E11.9';
  const thrombocytopenic = comorbid?.icd10 === 'D69.6';
  const restingPulse = Math.floor(between(66, 90));
  if (r() < 0.1) {
    out.allergies.push({
      appId,
      patientId: pid,
      substance: pick(['青霉素', '头孢类抗生素', '磺胺类药物', '海鲜']),
      reaction: pick(['皮疹', '瘙痒', '呼吸困难']),
      severity: pick(['轻度', '中度']),
      recordedAt: new Date(ANCHOR - between(400, 3000) * DAY),
      source: 'synthetic',
      sourceId: `${src}-a`,
    });
  }

  const nVisits = 1 + Math.floor(r() * 3) + (stages.length > 1 ? 1 : 0);
  let t = ANCHOR - between(200, 3000) * DAY;
  let severity = course.key === 'hypertension' ? between(0, 0.15) : between(0.3, 1.2);
  for (let v = 0; v < nVisits; v++) {
    const stage = stages[Math.min(stages.length - 1, Math.floor((v / nVisits) * stages.length))]!;
    const inpatient = stage.key === 'hcc' || stage.key === 'cirrhosis' ? r() < 0.7 : r() < 0.15;
    const kind = inpatient ? 'inpatient' : r() < 0.08 ? 'emergency' : 'outpatient';
    const vid = ids.nextVisitId();
    const vs = `${src}-v${v}`;
    // Admitted in daytime, Beijing time (UTC+8).
    const admit = new Date(
      Math.floor((t + 8 * HOUR) / DAY) * DAY - 8 * HOUR + Math.floor(between(8, 17)) * HOUR,
    );
    const days = inpatient ? Math.floor(between(3, 9)) : 0;
    const discharge = new Date(admit.getTime() + (inpatient ? days * DAY + 2 * HOUR : 20 * 60_000));
    out.visits.push({
      id: vid,
      appId,
      patientId: pid,
      kind,
      department: stage.department,
      doctor: doctorOf(stage.department, vid),
      admitAt: admit,
      dischargeAt: discharge,
      source: 'synthetic',
      sourceId: vs,
    });
    const doctor = doctorOf(stage.department, vid);
    const dx = [{ icd10: stage.icd10, name: stage.name, kind: 'main' }];
    if (viral && stage !== course) dx.push({ icd10: course.icd10, name: course.name, kind: 'secondary' });
    if (comorbid) dx.push({ ...comorbid, kind: 'secondary' });
    dx.forEach((d, i) => {
      out.diagnoses.push({
        appId,
        patientId: pid,
        visitId: vid,
        ...d,
        diagnosedAt: admit,
        source: 'synthetic',
        sourceId: `${vs}-d${i}`,
      });
    });

    // Lab series: worse with cirrhosis and cancer, better on antiviral treatment.
    severity = Math.max(
      course.key === 'hypertension' ? 0 : 0.1,
      severity * between(0.6, 1.3) + (stage.key === 'hcc' ? 0.5 : stage.key === 'cirrhosis' ? 0.3 : 0),
    );
    const liverDamage = course.key === 'hypertension' ? 0 : severity;
    const labValues: Partial<Record<LabCode, number>> = {
      ALT: round(between(12, 40) + liverDamage * between(20, 160), 0),
      AST: round(between(15, 35) + liverDamage * between(15, 140), 0),
      TBIL: round(between(6, 18) + liverDamage * between(2, 40)),
      ALB: round(between(40, 48) - liverDamage * between(2, 10)),
      AFP: round(stage.key === 'hcc' ? between(50, 3000) : between(1, 6) + liverDamage * between(0, 3)),
      PLT: round(
        thrombocytopenic
          ? between(45, 95)
          : between(150, 300) - (stage.key === 'cirrhosis' || stage.key === 'hcc' ? between(40, 90) : 0),
        0,
      ),
      GLU: round(diabetic ? between(7.2, 12.5) : between(4.2, 6.0)),
    };
    if (course.key === 'hbv') {
      // Antiviral treatment from the first visit on: the viral load falls and stays low.
      labValues.HBVDNA = round(v === 0 ? 10 ** between(3, 8) : 10 ** between(0, 3), 0);
      labValues.HBSAG = round(v === 0 ? between(800, 20_000) : between(100, 5000), 0);
    }
    if (course.key === 'hcv') labValues.HCVRNA = round(v === 0 ? 10 ** between(4, 7) : between(0, 15), 0);
    const collected = new Date(admit.getTime() + 23 * HOUR);
    for (const [code, value] of Object.entries(labValues) as Array<[LabCode, number]>) {
      const def = LABS[code];
      out.labResults.push({
        appId,
        patientId: pid,
        visitId: vid,
        itemCode: code,
        itemName: def.name,
        valueNum: value,
        valueText: String(value),
        unit: def.unit,
        refLow: def.low,
        refHigh: def.high,
        abnormalFlag: abnormalFlagOf(value, def.low, def.high),
        collectedAt: collected,
        source: 'synthetic',
        sourceId: `${vs}-l${code}`,
      });
    }

    const drugs = DRUGS[stage.key];
    drugs.slice(0, 1 + Math.floor(r() * drugs.length)).forEach(([dn, dose, unit, route, freq], i) => {
      out.orders.push({
        appId,
        patientId: pid,
        visitId: vid,
        category: 'drug',
        code: '',
        name: dn,
        dose,
        doseUnit: unit,
        route,
        frequency: freq,
        startAt: admit,
        stopAt: inpatient ? discharge : null,
        source: 'synthetic',
        sourceId: `${vs}-o${i}`,
      });
    });
    if (inpatient) {
      const [nd, freq] = pick(NON_DRUG);
      out.orders.push({
        appId,
        patientId: pid,
        visitId: vid,
        category: 'other',
        code: '',
        name: nd,
        dose: '',
        doseUnit: '',
        route: '',
        frequency: freq,
        startAt: admit,
        stopAt: discharge,
        source: 'synthetic',
        sourceId: `${vs}-on`,
      });
    }

    const liverLooks =
      stage.key === 'hcc'
        ? `肝右叶见一大小约${round(between(2, 8))}cm×${round(between(2, 7))}cm低密度占位，动脉期明显强化，门脉期廓清`
        : stage.key === 'cirrhosis'
          ? '肝脏体积缩小，表面呈结节状，肝裂增宽，脾大，少量腹水'
          : stage.key === 'nafld'
            ? '肝实质回声弥漫性增强，后方回声衰减'
            : '肝脏形态大小正常，实质回声稍增粗';
    const conclusion =
      stage.key === 'hcc'
        ? '肝右叶占位，考虑肝细胞癌'
        : stage.key === 'cirrhosis'
          ? '肝硬化，脾大，腹水'
          : stage.key === 'nafld'
            ? '脂肪肝'
            : '肝实质回声稍增粗';
    if (stage.key !== 'hypertension') {
      out.examReports.push({
        appId,
        patientId: pid,
        visitId: vid,
        modality: stage.key === 'hcc' ? 'CT' : '超声',
        bodyPart: '上腹部',
        findings: liverLooks,
        conclusion,
        examAt: new Date(admit.getTime() + 26 * HOUR),
        source: 'synthetic',
        sourceId: `${vs}-e`,
      });
    }

    const complaint = pick(stage.complaint);
    const t0 = round(between(36.3, 37.2));
    const pulse = restingPulse + Math.floor(between(-4, 5));
    const bp = hypertensive
      ? `${Math.floor(between(142, 172))}/${Math.floor(between(88, 104))}`
      : `${Math.floor(between(105, 135))}/${Math.floor(between(65, 85))}`;
    weight = Math.max(
      38,
      weight + between(-1.5, 1.5) - (stage.key === 'hcc' || stage.key === 'cirrhosis' ? 2 : 0),
    );
    if (inpatient) {
      out.physicalExams.push(
        {
          appId,
          patientId: pid,
          visitId: vid,
          item: '身高',
          value: String(height),
          unit: 'cm',
          recordedAt: admit,
          source: 'synthetic',
          sourceId: `${vs}-p0`,
        },
        {
          appId,
          patientId: pid,
          visitId: vid,
          item: '体重',
          value: String(round(weight)),
          unit: 'kg',
          recordedAt: admit,
          source: 'synthetic',
          sourceId: `${vs}-p1`,
        },
        {
          appId,
          patientId: pid,
          visitId: vid,
          item: '血压',
          value: bp,
          unit: 'mmHg',
          recordedAt: admit,
          source: 'synthetic',
          sourceId: `${vs}-p2`,
        },
      );
      if (stage.key === 'hcc' && r() < 0.6) {
        const op =
          r() < 0.5
            ? ['47.0100', '肝部分切除术', '全身麻醉']
            : ['50.9300', '经导管肝动脉化疗栓塞术(TACE)', '局部麻醉'];
        const operatedAt = new Date(admit.getTime() + 2 * DAY + 9 * HOUR);
        const surgeon = `${pick(SURNAMES)}${pick(GIVEN_MALE)}`;
        out.operations.push({
          appId,
          patientId: pid,
          visitId: vid,
          code: op[0],
          name: op[1],
          operatedAt,
          surgeon,
          anaesthesia: op[2],
          source: 'synthetic',
          sourceId: `${vs}-op`,
        });
        // The operation record (手术记录), written by the surgeon the same afternoon.
        const opBody = `手术名称：${op[1]}。麻醉方式：${op[2]}。术者：${surgeon}。手术经过：患者取平卧位，${op[2]}成功后常规消毒铺巾，按计划完成${op[1]}，术中出血少，过程顺利，术后安返病房。`;
        out.documents.push({
          appId,
          patientId: pid,
          visitId: vid,
          kind: 'operation',
          title: '手术记录',
          body: opBody,
          author: surgeon,
          writtenAt: new Date(operatedAt.getTime() + 4 * HOUR),
          searchText: searchTextOf('手术记录', opBody),
          source: 'synthetic',
          sourceId: `${vs}-opn`,
        });
      }
      // The bedside chart: every 4 hours, fever after an operation, events now and then.
      const fever = stage.key === 'hcc' || r() < 0.2;
      const ventilated = stage.key === 'hcc' && r() < 0.15;
      const day0 = Math.floor((admit.getTime() + 8 * HOUR) / DAY) * DAY - 8 * HOUR;
      let n = 0;
      for (let d = 0; d < days; d++) {
        for (const h of CHART_HOURS) {
          const at = new Date(day0 + d * DAY + h * HOUR);
          if (at < admit || at > discharge) continue;
          const temp = round(t0 + (fever && d >= 1 && d <= 3 ? between(0.5, 2.2) : between(-0.3, 0.4)));
          const vsrc = `${vs}-t${n++}`;
          out.vitalSigns.push(
            {
              appId,
              patientId: pid,
              visitId: vid,
              itemName: '体温',
              value: r() < 0.01 ? '不升' : String(temp),
              itemUnit: '℃',
              recordDt: at,
              source: 'synthetic',
              sourceId: `${vsrc}t`,
            },
            {
              appId,
              patientId: pid,
              visitId: vid,
              itemName: '脉搏',
              value: String(Math.floor(pulse + (temp - 37) * 10 + between(-6, 6))),
              itemUnit: '次/分',
              recordDt: at,
              source: 'synthetic',
              sourceId: `${vsrc}p`,
            },
            {
              appId,
              patientId: pid,
              visitId: vid,
              itemName: '血氧饱和度',
              value: String(Math.floor(between(ventilated && d === 2 ? 86 : 94, 100))),
              itemUnit: '%',
              recordDt: at,
              source: 'synthetic',
              sourceId: `${vsrc}s`,
            },
          );
        }
      }
      const ev = (at: number, value: string, k: string) =>
        out.vitalSigns.push({
          appId,
          patientId: pid,
          visitId: vid,
          itemName: '事件',
          value,
          itemUnit: '',
          recordDt: new Date(at),
          source: 'synthetic',
          sourceId: `${vs}-ev${k}`,
        });
      ev(admit.getTime(), '入院', 'in');
      if (out.operations.length && out.operations[out.operations.length - 1]!.visitId === vid)
        ev(admit.getTime() + 2 * DAY + 9 * HOUR, '手术', 'op');
      if (ventilated) {
        ev(admit.getTime() + 2 * DAY + 12 * HOUR, '开呼吸机', 'von');
        ev(admit.getTime() + 3 * DAY + 10 * HOUR, '关呼吸机', 'voff');
      }
      if (days > 4 && r() < 0.25) ev(admit.getTime() + 4 * DAY + 5 * HOUR, '外出请假', 'leave');
      ev(discharge.getTime(), '出院', 'out');
    }

    // Notes: what a clinician writes, with the numbers above.
    const sex = gender === 1 ? '男' : '女';
    const visitAge = age - Math.floor((ANCHOR - admit.getTime()) / (365.25 * DAY));
    const labLine = `${diabetic ? `空腹血糖 ${labValues.GLU}mmol/L，` : ''}ALT ${labValues.ALT}U/L，AST ${labValues.AST}U/L，TBIL ${labValues.TBIL}μmol/L，ALB ${labValues.ALB}g/L，AFP ${labValues.AFP}ng/mL${labValues.HBVDNA !== undefined ? `，HBV-DNA ${labValues.HBVDNA}IU/mL` : ''}${labValues.HCVRNA !== undefined ? `，HCV-RNA ${labValues.HCVRNA}IU/mL` : ''}`;
    const dxLine = dx.map((d, i) => `${i + 1}.${d.name}`).join(' ');
    const history = viral
      ? `${Math.floor(between(2, 20))}年前发现${course.key === 'hbv' ? '乙肝表面抗原阳性' : '丙肝抗体阳性'}，${r() < 0.5 ? '未规律抗病毒治疗' : '曾口服抗病毒药物治疗'}`
      : course.key === 'hypertension'
        ? `${Math.floor(between(1, 10))}年前发现血压升高，最高${Math.floor(between(160, 190))}/${Math.floor(between(95, 110))}mmHg`
        : `${Math.floor(between(1, 10))}年前体检发现异常，未规律诊治`;
    const jaundice = labValues.TBIL! > 34 ? '轻度黄染' : '无黄染';
    const body = inpatient
      ? `患者${name}，${sex}，${visitAge}岁，因“${complaint}${Math.floor(between(1, 12))}月”于${admit.toISOString().slice(0, 10)}入院。现病史：${history}。近期${complaint}，无发热、寒战。既往史：${course.key === 'hypertension' ? '高血压病史，规律服药' : comorbid ? `${comorbid.name}病史` : '否认高血压、糖尿病病史'}，${r() < 0.1 ? '有青霉素过敏史' : '否认药物过敏史'}。查体：T ${t0}℃，P ${pulse}次/分，BP ${bp}mmHg，体重 ${round(weight)}kg，神志清，皮肤巩膜${jaundice}，腹软，${stage.key === 'cirrhosis' ? '移动性浊音阳性' : '无压痛及反跳痛'}。辅助检查：${labLine}。影像：${conclusion}。初步诊断：${dxLine}。诊疗计划：完善相关检查，${drugs[0]![0]}等治疗，监测肝功能变化。`
      : `${sex}，${visitAge}岁。主诉：${complaint}。现病史：${history}。查体：神志清，皮肤巩膜${jaundice}，腹软。辅助检查：${labLine}。诊断：${dxLine}。处理：${drugs[0]![0]} ${drugs[0]![1]}${drugs[0]![2]} ${drugs[0]![4]}，定期复查肝功能${course.key === 'hbv' ? '及HBV-DNA' : ''}。`;
    const title = inpatient ? '入院记录' : kind === 'emergency' ? '急诊病历' : '门诊病历';
    out.documents.push({
      appId,
      patientId: pid,
      visitId: vid,
      kind: inpatient ? 'admission' : 'other',
      title,
      body,
      author: doctor,
      writtenAt: new Date(admit.getTime() + 2 * HOUR),
      searchText: searchTextOf(title, body),
      source: 'synthetic',
      sourceId: `${vs}-doc`,
    });
    if (inpatient) {
      const summary = `患者${name}因${complaint}入院，诊断${dxLine}。住院${days}天，予${drugs.map((d) => d[0]).join('、')}治疗${out.operations.some((o) => o.visitId === vid) ? '，并行手术治疗，术后恢复可' : ''}。出院时一般情况可，复查${labLine}。出院医嘱：规律服药，1月后门诊复查肝功能、甲胎蛋白及腹部影像。`;
      out.documents.push({
        appId,
        patientId: pid,
        visitId: vid,
        kind: 'discharge',
        title: '出院小结',
        body: summary,
        author: doctor,
        writtenAt: discharge,
        searchText: searchTextOf('出院小结', summary),
        source: 'synthetic',
        sourceId: `${vs}-dis`,
      });
    }
    t = discharge.getTime() + between(30, 400) * DAY;
    if (t > ANCHOR) t = ANCHOR - between(1, 30) * DAY;
  }
}

/** Visit ids to reserve per patient (the generator never makes more). */
export const MAX_VISITS_PER_PATIENT = 5;
