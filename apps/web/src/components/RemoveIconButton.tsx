import { DeleteOutlined } from '@ant-design/icons';
import { Button } from 'antd';

/**
 * The small red bin beside one entry of a list being edited (a condition, a rule row, a team
 * member, a picked variable) that takes it out. `label` names it for screen readers, and with
 * `titled` also on hover.
 */
export function RemoveIconButton({
  label,
  onClick,
  titled,
}: {
  label: string;
  onClick: () => void;
  titled?: boolean;
}) {
  return (
    <Button
      size="small"
      type="text"
      danger
      icon={<DeleteOutlined />}
      aria-label={label}
      title={titled ? label : undefined}
      onClick={onClick}
    />
  );
}
