#!/bin/sh
# Debian's Chromium (/usr/bin/chromium) for Playwright, with every --disable-features switch
# merged into one: Chromium reads only the last, and Playwright passes a list of its own that
# playwright.config.ts adds to. Nothing else changes.
disabled=""
for arg do
  shift
  case $arg in
    --disable-features=*) disabled="$disabled,${arg#--disable-features=}" ;;
    *) set -- "$@" "$arg" ;;
  esac
done
exec /usr/bin/chromium "$@" ${disabled:+"--disable-features=${disabled#,}"}
