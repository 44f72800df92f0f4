import type { ProColumns } from '@ant-design/pro-components';
import { Tag } from 'antd';
import dayjs from 'dayjs';

/*
 * Columns several list pages show the same way. Titles and words come from the page (its own
 * i18n namespace), so a column reads like the rest of its table.
 */

/** Whether a row is switched on: a green tag or a plain one. */
export function enabledColumn<T extends { enabled: boolean }>(
  words: { title: string; on: string; off: string },
  width = 90,
): ProColumns<T> {
  return {
    title: words.title,
    dataIndex: 'enabled',
    width,
    render: (_, row) => (row.enabled ? <Tag color="green">{words.on}</Tag> : <Tag>{words.off}</Tag>),
  };
}

/** When something happened to a row (its `field`, a time), to the minute. */
export function minuteColumn<T>(title: string, field: keyof T & string, width = 140): ProColumns<T> {
  return {
    title,
    key: field,
    width,
    render: (_, row) => dayjs(row[field] as string).format('YYYY-MM-DD HH:mm'),
  };
}

/** When a row last changed, to the minute. */
export function updatedColumn<T extends { updatedAt: string }>(title: string): ProColumns<T> {
  return { ...minuteColumn<T>(title, 'updatedAt'), dataIndex: 'updatedAt' };
}
