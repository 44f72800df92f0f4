import { Button, type ButtonProps } from 'antd';

/** An action that looks like a link and is a real button (keyboard and screen readers). */
export function LinkButton(props: ButtonProps) {
  return (
    <Button type="link" size="small" {...props} style={{ padding: 0, height: 'auto', ...props.style }} />
  );
}
