import { Outlet } from 'react-router';

/** No menu, no header: self-check and error pages. */
export function BlankLayout() {
  return (
    <div style={{ minHeight: '100vh', background: '#f0f2f5' }}>
      <Outlet />
    </div>
  );
}
