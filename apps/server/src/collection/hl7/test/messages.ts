import net from 'node:net';

/**
 * HL7 v2.5 messages as a Chinese hospital's HIS and LIS send them (segments and fields laid out
 * as in the HL7 v2.5 chapters 3 and 7 examples), for the listener's tests and benchmark.
 */

/** A segment from its fields by number (MSH: from MSH-3). */
function seg(name: string, fields: Record<number, string>): string {
  const last = Math.max(0, ...Object.keys(fields).map(Number));
  const out: string[] = [];
  const first = name === 'MSH' ? 3 : 1;
  for (let i = first; i <= last; i++) out.push(fields[i] ?? '');
  return name === 'MSH' ? `MSH|^~\\&|${out.join('|')}` : `${name}|${out.join('|')}`;
}

const msh = (app: string, time: string, type: string, controlId: string) =>
  seg('MSH', {
    3: app,
    4: 'BJ-HOSP^1.2.156.112604^ISO',
    5: 'CRDP',
    6: 'CRDP',
    7: time,
    9: type,
    10: controlId,
    11: 'P',
    12: '2.5',
    15: 'AL',
    16: 'NE',
    17: 'CHN',
    18: 'UNICODE UTF-8',
  });

export interface Hl7Patient {
  id: string;
  family: string;
  given: string;
  birth: string;
  sex: string;
  nationalId?: string;
}

export const ZHANG_WEI: Hl7Patient = {
  id: 'H20260001',
  family: '张',
  given: '伟',
  birth: '19650312',
  sex: 'M',
  nationalId: '110101196503120018',
};

const pid = (p: Hl7Patient) =>
  seg('PID', {
    1: '1',
    3: `${p.id}^^^HIS^MR${p.nationalId ? `~${p.nationalId}^^^CHN^NNCHN` : ''}`,
    5: `${p.family}^${p.given}^^^^^L`,
    7: p.birth,
    8: p.sex,
    11: '朝阳路1号^^北京市^北京市^100020^CHN^H',
    13: '^PRN^PH^^86^^13800138000',
    18: `${p.id}-A`,
  });

export function adt(
  event: 'A01' | 'A03' | 'A04' | 'A08',
  o: {
    controlId: string;
    patient?: Hl7Patient;
    visit?: string;
    cls?: string;
    department?: string;
    admit?: string;
    discharge?: string;
    time?: string;
  },
): string {
  const time = o.time ?? '20260301083000';
  return [
    msh('HIS', time, `ADT^${event}^ADT_A01`, o.controlId),
    seg('EVN', { 1: event, 2: time, 5: 'D001^李^明' }),
    pid(o.patient ?? ZHANG_WEI),
    seg('PV1', {
      1: '1',
      2: o.cls ?? 'I',
      3: `${o.department ?? '心内科'}^301^02^BJ-HOSP`,
      7: 'D001^李^明',
      10: 'CAR',
      18: o.cls === 'O' ? 'OP' : 'IP',
      19: o.visit ?? 'V20260001',
      44: o.admit ?? '20260301083000',
      45: o.discharge ?? '',
    }),
  ].join('\r');
}

/** ORU^R01 with a liver panel: ALT (high), AST and HBsAg (text), or `n` numeric results. */
export function oru(o: {
  controlId: string;
  patient?: Hl7Patient;
  visit?: string;
  order?: string;
  n?: number;
}): string {
  const order = o.order ?? 'LAB1001';
  const obx =
    o.n === undefined
      ? [
          seg('OBX', {
            1: '1',
            2: 'NM',
            3: 'ALT^丙氨酸氨基转移酶^L',
            5: '56',
            6: 'U/L',
            7: '9-50',
            8: 'H',
            11: 'F',
            14: '20260302093000',
          }),
          seg('OBX', {
            1: '2',
            2: 'NM',
            3: 'AST^天门冬氨酸氨基转移酶^L',
            5: '30',
            6: 'U/L',
            7: '15-40',
            8: 'N',
            11: 'F',
            14: '20260302093000',
          }),
          seg('OBX', { 1: '3', 2: 'ST', 3: 'HBSAG^乙肝表面抗原^L', 5: '阴性', 8: 'N', 11: 'F' }),
        ]
      : Array.from({ length: o.n }, (_, i) =>
          seg('OBX', {
            1: String(i + 1),
            2: 'NM',
            3: `T${i + 1}^项目${i + 1}^L`,
            5: String(10 + i),
            6: 'mmol/L',
            7: '3.5-5.5',
            11: 'F',
          }),
        );
  return [
    msh('LIS', '20260302100000', 'ORU^R01^ORU_R01', o.controlId),
    pid(o.patient ?? ZHANG_WEI),
    seg('PV1', { 1: '1', 2: 'I', 3: '心内科^301^02', 19: o.visit ?? 'V20260001' }),
    seg('ORC', { 1: 'RE', 2: `ORD-${order}`, 3: order }),
    seg('OBR', {
      1: '1',
      2: `ORD-${order}`,
      3: order,
      4: 'LFT^肝功能^L',
      7: '20260302090000',
      14: '20260302091000',
      16: 'D001^李^明',
      25: 'F',
    }),
    ...obx,
  ].join('\r');
}

/** Sends raw bytes in an MLLP frame on a new connection and returns the reply's text. */
export async function sendFrame(port: number, content: string | Buffer): Promise<string> {
  const body = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.write(Buffer.concat([Buffer.from([0x0b]), body, Buffer.from([0x1c, 0x0d])]));
    });
    let got = Buffer.alloc(0);
    socket.on('data', (d) => {
      got = Buffer.concat([got, d]);
      if (got.at(-2) === 0x1c && got.at(-1) === 0x0d) {
        socket.destroy();
        resolve(got.subarray(1, got.length - 2).toString('utf8'));
      }
    });
    socket.on('error', reject);
    setTimeout(() => {
      socket.destroy();
      reject(new Error('no reply'));
    }, 5000).unref();
  });
}
