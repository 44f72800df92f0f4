import type { ImportReport } from '@crdp/core';
import { Alert, Button, Modal, Space, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { addScreenTexts } from '../app/i18n';

const NS = addScreenTexts(
  'importReport',
  {
    title: '导入结果',
    stored: '已导入 {{total}} 行：新增 {{inserted}} 条，更新 {{updated}} 条。',
    refused: '文件中有 {{count}} 行有错误，整份文件未导入。请修改后重新导入。',
    row: '行号',
    field: '列',
    message: '原因',
    close: '关闭',
  },
  {
    title: 'Import result',
    stored: 'Imported {{total}} rows: {{inserted}} new, {{updated}} updated.',
    refused: '{{count}} rows of the file are wrong, so none of it was imported. Fix them and import again.',
    row: 'Row',
    field: 'Column',
    message: 'Reason',
    close: 'Close',
  },
);

/**
 * The answer of a CSV import that stores all rows or none (`ImportReport` of @crdp/core): how
 * many were added and updated, or every bad row with its column and reason.
 */
export function ImportReportModal({ report, onClose }: { report: ImportReport | null; onClose: () => void }) {
  const { t } = useTranslation(NS);
  return (
    <Modal
      open={!!report}
      title={t('title')}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{t('close')}</Button>}
      width={720}
      destroyOnHidden
    >
      {report &&
        (report.stored ? (
          <Alert
            type="success"
            showIcon
            message={t('stored', { total: report.total, inserted: report.inserted, updated: report.updated })}
          />
        ) : (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Alert type="error" showIcon message={t('refused', { count: report.faultCount })} />
            <Table
              size="small"
              rowKey={(f) => `${f.row}-${f.field}`}
              dataSource={report.faults}
              pagination={{ pageSize: 10, hideOnSinglePage: true }}
              data-testid="import-faults"
              columns={[
                { title: t('row'), dataIndex: 'row', width: 80 },
                { title: t('field'), dataIndex: 'field', width: 140 },
                { title: t('message'), dataIndex: 'message' },
              ]}
            />
          </Space>
        ))}
    </Modal>
  );
}
