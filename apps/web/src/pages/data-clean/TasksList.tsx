import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { DATA_CLEAN_NS } from './i18n';
import { TaskTable } from './TaskTable';

/** 清洗任务列表: every cleaning task with status, progress, values, rerun, cancel and delete. */
export default function TasksList() {
  const { t } = useTranslation(DATA_CLEAN_NS);
  return (
    <Card title={t('tasks.list')}>
      <TaskTable />
    </Card>
  );
}
