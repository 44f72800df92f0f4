import { Space, Typography } from 'antd';
import type { ReactNode } from 'react';

/** A cell's text with a grey second line under it (left out when `sub` is empty). */
export function TwoLines({ children, sub }: { children: ReactNode; sub: ReactNode }) {
  return (
    <Space direction="vertical" size={0}>
      {children}
      {sub && <Typography.Text type="secondary">{sub}</Typography.Text>}
    </Space>
  );
}
