import type { LabelText } from './types.js';

const both = (zh: string, en: string): LabelText => ({ 'zh-CN': zh, 'en-US': en });

/** Data collection's codes (contracts/collection.ts), as people name them. */
export const COLLECTION_SOURCE_KIND_LABELS = {
  postgresql: both('PostgreSQL 数据库', 'PostgreSQL database'),
  mysql: both('MySQL / MariaDB 数据库', 'MySQL / MariaDB database'),
  hl7: both('HL7 v2 消息（MLLP）', 'HL7 v2 messages (MLLP)'),
  csv: both('CSV 文件夹', 'Folder of CSV files'),
  fhir: both('FHIR R4 资源包文件夹', 'Folder of FHIR R4 bundles'),
} as const satisfies Record<string, LabelText>;

export const COLLECTION_TRANSFORM_LABELS = {
  trim: both('去除首尾空格', 'Trim spaces'),
  constant: both('常量', 'Constant'),
  map: both('代码对照', 'Code map'),
  lookup: both('字典查找', 'Dictionary lookup'),
  date: both('日期格式', 'Date layout'),
  unit: both('单位换算', 'Unit conversion'),
} as const satisfies Record<string, LabelText>;

export const COLLECTION_CHANGE_OP_LABELS = {
  insert: both('新增', 'Inserted'),
  update: both('更新', 'Updated'),
} as const satisfies Record<string, LabelText>;

export const COLLECTION_TRIGGER_LABELS = {
  manual: both('手动', 'Manual'),
  schedule: both('定时', 'Scheduled'),
} as const satisfies Record<string, LabelText>;

export const HL7_MESSAGE_STATUS_LABELS = {
  stored: both('已接收', 'Received'),
  processed: both('已入库', 'Stored in the CDR'),
  rejected: both('已拒绝', 'Rejected'),
} as const satisfies Record<string, LabelText>;
