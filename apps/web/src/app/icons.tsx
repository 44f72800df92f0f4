import {
  ApartmentOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  ClearOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  EyeOutlined,
  FileProtectOutlined,
  FileSearchOutlined,
  FormOutlined,
  GlobalOutlined,
  IdcardOutlined,
  MedicineBoxOutlined,
  NodeIndexOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TagsOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { ComponentType } from 'react';

/** The icons the route table names (imported one by one to keep the bundle small). */
export const ROUTE_ICONS: Record<string, ComponentType> = {
  ApartmentOutlined,
  AuditOutlined,
  BarChartOutlined,
  BellOutlined,
  ClearOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  ExperimentOutlined,
  EyeOutlined,
  FileProtectOutlined,
  FileSearchOutlined,
  FormOutlined,
  GlobalOutlined,
  IdcardOutlined,
  MedicineBoxOutlined,
  NodeIndexOutlined,
  SafetyCertificateOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TagsOutlined,
  WarningOutlined,
};

export function RouteIcon({ name }: { name: string | undefined }) {
  const Icon = name ? ROUTE_ICONS[name] : undefined;
  return Icon ? <Icon /> : null;
}
