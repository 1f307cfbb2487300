"""The app's stylesheet: header, tab bar, boxes, alerts, download link, tables and lessons."""

from __future__ import annotations

APP_CSS = """<style>
.palace-app { max-width: 1500px; }
.palace-app-header { display: flex; align-items: center; gap: 18px; border-radius: 18px;
  padding: 14px 24px; color: #fff; border-bottom: 5px solid #f2b705;
  background: radial-gradient(ellipse at 20% 0%, #1f7a4a 0%, #17603a 55%, #0f4429 100%);
  box-shadow: 0 3px 10px rgba(0,0,0,.2); }
.palace-app-logo { font-size: 46px; line-height: 1; color: #f2b705;
  text-shadow: 0 2px 3px rgba(0,0,0,.35); }
.palace-app-title { font-size: 31px; font-weight: 800; letter-spacing: .01em; color: #fff; }
.palace-app-tagline { font-size: 16.5px; color: #e5f3ea; }
.palace-app-bar { background: #f8fafc; border: 1px solid #e2e8f0; border-radius: 12px;
  padding: 4px 10px; }
.palace-app .widget-tab > .widget-tab-bar { min-height: 44px; }
.palace-app .widget-tab > .widget-tab-bar .lm-TabBar-tab { flex: 0 1 170px; min-width: 120px;
  min-height: 44px; line-height: 42px; padding: 0 18px; font-size: 16.5px; font-weight: 650;
  text-align: center; color: #374151; background: #f1f5f9; border-radius: 10px 10px 0 0; }
.palace-app .widget-tab > .widget-tab-bar .lm-TabBar-tab.lm-mod-current { color: #0f4429;
  background: #fff; border-top: 3px solid #f2b705; }
.palace-app .widget-tab > .widget-tab-bar .lm-TabBar-tabLabel { line-height: 40px; }
.palace-app .widget-tab > .widget-tab-contents { padding: 14px 12px; }
.palace-app .widget-label, .palace-app .widget-inline-hbox .widget-label { font-size: 14.5px; }
.palace-app input, .palace-app select { font-size: 14.5px; }
.palace-app .widget-upload.jupyter-button { height: 34px; border-radius: 8px; font-size: 14.5px; }
.palace-app .palace-box > .widget-box, .palace-app .widget-tab-contents > .widget-box {
  max-width: calc(100% - 6px); }
.palace-box { background: #fff; border: 1px solid #e5e7eb; border-radius: 14px;
  padding: 10px 14px 12px; box-shadow: 0 1px 4px rgba(0,0,0,.06); }
.palace-box-title { font-size: 17px; font-weight: 700; color: #111827; margin-bottom: 2px; }
.palace-alert { background: #fef2f2; color: #991b1b; border: 1px solid #fca5a5;
  border-left: 6px solid #b91c1c; border-radius: 10px; padding: 7px 12px; font-size: 15px; }
.palace-okay { background: #f0fdf4; color: #166534; border: 1px solid #bbf7d0;
  border-left: 6px solid #15803d; border-radius: 10px; padding: 7px 12px; font-size: 15px; }
.palace-download { display: inline-block; padding: 6px 14px; border-radius: 8px;
  background: #1d4ed8; color: #fff !important; font-weight: 650; text-decoration: none; }
.palace-download:hover { background: #1e40af; }
.palace-scenario-q { margin-top: 8px; padding: 8px 12px; border-radius: 10px;
  background: #eff6ff; border: 1px solid #bfdbfe; font-size: 16px; }
.palace-scenario-a { margin-top: 6px; padding: 8px 12px; border-radius: 10px;
  background: #f0fdf4; border: 1px solid #bbf7d0; font-size: 15.5px; }
.palace-df table { border-collapse: collapse; font-size: 14.5px; }
.palace-df th, .palace-df td { padding: 4px 12px; border-bottom: 1px solid #e5e7eb;
  text-align: right; }
.palace-df thead th { background: #f1f5f9; text-align: center; }
.palace-df tbody th { text-align: left; font-weight: 600; color: #374151; }
.palace-lessons { list-style: none; padding: 0; margin: 6px 0; display: grid; gap: 8px; }
.palace-lessons li { background: #fff; border: 1px solid #e5e7eb; border-radius: 12px;
  padding: 8px 14px; }
.palace-lessons a { font-size: 17px; font-weight: 700; color: #1d4ed8; text-decoration: none; }
.palace-lessons a:hover { text-decoration: underline; }
.palace-lesson-file { color: #6b7280; font-size: 13px; margin-left: 8px; font-family:
  ui-monospace, Menlo, Consolas, monospace; }
.palace-lesson-about { color: #374151; font-size: 14.5px; margin-top: 2px; }
.palace-scroll { overflow-x: auto; max-width: 100%; }
.palace-lessons li { min-width: 0; }
@media (max-width: 640px) {
  .palace-lesson-file { display: block; margin-left: 0; overflow-wrap: anywhere; }
  .palace-app .widget-tab > .widget-tab-bar { height: auto !important; }
  .palace-app .widget-tab > .widget-tab-bar .lm-TabBar-content { flex-wrap: wrap; }
  .palace-app .widget-tab > .widget-tab-bar .lm-TabBar-tab { flex: 1 1 auto; min-width: 0;
    padding: 0 10px; font-size: 15px; border-radius: 10px; }
  .palace-app-header { padding: 10px 14px; gap: 10px; }
  .palace-app-title { font-size: 24px; }
  .palace-app-tagline { font-size: 14.5px; }
}
</style>"""
