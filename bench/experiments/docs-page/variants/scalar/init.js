// Nothing from another origin: no default fonts (fonts.scalar.com), no telemetry, no agent, no proxy.
Scalar.createApiReference('#app', {
  url: '/openapi.json',
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: false,
});
