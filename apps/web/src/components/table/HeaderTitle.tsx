import { Space, Typography } from 'antd';
import type { ComponentProps, ReactNode } from 'react';

/** A line under a table's header title: small, grey and not bold. */
export function HeaderHint(props: ComponentProps<typeof Typography.Text>) {
  return <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }} {...props} />;
}

/** A table's header title with its hint under it, and any further hint lines (`children`). */
export function HeaderTitle({
  title,
  hint,
  children,
}: {
  title: ReactNode;
  hint: ReactNode;
  children?: ReactNode;
}) {
  return (
    <Space direction="vertical" size={0}>
      <span>{title}</span>
      <HeaderHint>{hint}</HeaderHint>
      {children}
    </Space>
  );
}
