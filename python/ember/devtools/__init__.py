"""Ember's devtools: the profiler (time per instruction and per delegate op,
Chrome traces), intermediate outputs (every instruction's outputs, mapped to
the exported graph's nodes and source lines), the numerical validator
(`ember.validate`, `ember validate`) and the HTML report. docs/devtools.md
says how to use them."""
