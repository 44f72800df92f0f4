/** Word lists of the synthetic generator: common surnames, name characters, departments, drugs. */
export const SURNAMES = Array.from(
  '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤',
);
export const GIVEN_MALE = Array.from('伟强磊军勇杰涛明超刚平辉鹏华飞鑫波斌宇浩凯健俊帆帅旭宁龙林阳建国志文');
export const GIVEN_FEMALE = Array.from('芳娜敏静丽艳娟霞秀玲桂英红燕萍琳雪慧颖倩婷洁琴云莲凤梅兰晶');
export const CITIES = [
  '北京市朝阳区',
  '上海市徐汇区',
  '广州市天河区',
  '成都市武侯区',
  '武汉市洪山区',
  '杭州市西湖区',
  '西安市雁塔区',
  '南京市鼓楼区',
];
export const STREETS = ['建设路', '人民路', '解放路', '中山路', '和平街', '长江路', '文化路', '新华街'];

export interface Course {
  key: 'hbv' | 'hcv' | 'cirrhosis' | 'hcc' | 'nafld' | 'hypertension';
  icd10: string;
  name: string;
  department: string;
  complaint: string[];
}

export const COURSES: Course[] = [
  {
    key: 'hbv',
    icd10: 'B18.1',
    name: '慢性乙型病毒性肝炎',
    department: '感染科',
    complaint: ['乏力、纳差', '体检发现乙肝表面抗原阳性', '肝区不适'],
  },
  {
    key: 'hcv',
    icd10: 'B18.2',
    name: '慢性丙型病毒性肝炎',
    department: '感染科',
    complaint: ['乏力', '体检发现丙肝抗体阳性', '食欲减退'],
  },
  {
    key: 'cirrhosis',
    icd10: 'K74.6',
    name: '肝硬化',
    department: '消化内科',
    complaint: ['腹胀、双下肢水肿', '呕血、黑便', '皮肤巩膜黄染'],
  },
  {
    key: 'hcc',
    icd10: 'C22.0',
    name: '肝细胞癌',
    department: '肝胆外科',
    complaint: ['右上腹痛', '体检发现肝占位', '消瘦、乏力'],
  },
  {
    key: 'nafld',
    icd10: 'K76.0',
    name: '非酒精性脂肪性肝病',
    department: '消化内科',
    complaint: ['体检发现转氨酶升高', '肝区隐痛'],
  },
  {
    key: 'hypertension',
    icd10: 'I10',
    name: '原发性高血压',
    department: '心内科',
    complaint: ['头晕、头痛', '血压升高'],
  },
];

export const COMORBID = [
  { icd10: 'E11.9', name: '2型糖尿病' },
  { icd10: 'I10', name: '原发性高血压' },
  { icd10: 'K80.2', name: '胆囊结石' },
  { icd10: 'D69.6', name: '血小板减少' },
];

export const LABS = {
  ALT: { name: '丙氨酸氨基转移酶', unit: 'U/L', low: 9, high: 50 },
  AST: { name: '天门冬氨酸氨基转移酶', unit: 'U/L', low: 15, high: 40 },
  TBIL: { name: '总胆红素', unit: 'μmol/L', low: 3.4, high: 20.5 },
  ALB: { name: '白蛋白', unit: 'g/L', low: 40, high: 55 },
  AFP: { name: '甲胎蛋白', unit: 'ng/mL', low: 0, high: 7 },
  HBVDNA: { name: '乙肝病毒DNA', unit: 'IU/mL', low: 0, high: 20 },
  HCVRNA: { name: '丙肝病毒RNA', unit: 'IU/mL', low: 0, high: 15 },
  PLT: { name: '血小板计数', unit: '10^9/L', low: 125, high: 350 },
  GLU: { name: '空腹血糖', unit: 'mmol/L', low: 3.9, high: 6.1 },
  HBSAG: { name: '乙肝表面抗原定量', unit: 'IU/mL', low: 0, high: 0.05 },
} as const;
export type LabCode = keyof typeof LABS;

export const DRUGS: Record<Course['key'], Array<[string, string, string, string, string]>> = {
  // name, dose, unit, route, frequency
  hbv: [
    ['恩替卡韦片', '0.5', 'mg', '口服', 'qd'],
    ['富马酸替诺福韦二吡呋酯片', '300', 'mg', '口服', 'qd'],
  ],
  hcv: [['索磷布韦维帕他韦片', '1', '片', '口服', 'qd']],
  cirrhosis: [
    ['螺内酯片', '40', 'mg', '口服', 'bid'],
    ['呋塞米片', '20', 'mg', '口服', 'qd'],
    ['盐酸普萘洛尔片', '10', 'mg', '口服', 'bid'],
  ],
  hcc: [
    ['甲磺酸仑伐替尼胶囊', '8', 'mg', '口服', 'qd'],
    ['注射用头孢曲松钠', '2', 'g', '静脉滴注', 'qd'],
  ],
  nafld: [['多烯磷脂酰胆碱胶囊', '456', 'mg', '口服', 'tid']],
  hypertension: [
    ['苯磺酸氨氯地平片', '5', 'mg', '口服', 'qd'],
    ['缬沙坦胶囊', '80', 'mg', '口服', 'qd'],
  ],
};
export const NON_DRUG = [
  ['二级护理', 'qd'],
  ['低盐低脂饮食', 'qd'],
  ['测血压', 'bid'],
  ['留置针护理', 'qd'],
] as const;
