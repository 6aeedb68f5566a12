package org.ember;

/**
 * Loads libember_jni (and through it libember.so.1, the C ABI) once. The system property
 * ember.library.path names the folder holding both; without it, the JVM's java.library.path is
 * searched (on Android, the app's jniLibs).
 */
public final class NativeLibrary {
  private static boolean loaded;

  private NativeLibrary() {}

  /** Loads the library if no class has yet. */
  public static synchronized void load() {
    if (loaded) {
      return;
    }
    String dir = System.getProperty("ember.library.path");
    if (dir != null && !dir.isEmpty()) {
      System.load(new java.io.File(dir, System.mapLibraryName("ember_jni")).getAbsolutePath());
    } else {
      System.loadLibrary("ember_jni");
    }
    loaded = true;
  }

  /** The Ember release the native library is, e.g. "0.1.0". */
  public static String version() {
    load();
    return nativeVersion();
  }

  /** The C ABI's version the native library speaks, (major << 16) | minor. */
  public static int abiVersion() {
    load();
    return nativeAbiVersion();
  }

  private static native String nativeVersion();

  private static native int nativeAbiVersion();
}
