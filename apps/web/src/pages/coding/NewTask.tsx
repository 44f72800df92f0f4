import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { CODING_NS } from './i18n';
import { CODING_PATHS, NewTaskForm } from './TaskList';

/** 新建手术编码任务: starts a surgery coding task, then shows the task list with its progress. */
export default function SurgeryNewTask() {
  const { t } = useTranslation(CODING_NS);
  const navigate = useNavigate();
  return (
    <Card title={t('newTask.title')}>
      <Typography.Paragraph type="secondary">{t('newTask.hint')}</Typography.Paragraph>
      <NewTaskForm kind="surgery" onMade={() => navigate(CODING_PATHS.surgery.tasks)} />
    </Card>
  );
}
