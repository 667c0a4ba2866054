package dev.retryafter.core;

/**
 * Type checks against classes of optional dependencies (Apache HttpClient 5), by name, so
 * that the check never loads a class that may be missing (public for the adapters, not for
 * applications).
 */
public final class ClassNames {

	private ClassNames() {
	}

	/**
	 * Whether {@code object} is an instance of the class named, or of a subclass of it.
	 * @param object the object
	 * @param className the binary name of a class (not an interface)
	 * @return whether the class or one of its superclasses has that name
	 */
	public static boolean isInstance(Object object, String className) {
		for (Class<?> type = object.getClass(); type != null; type = type.getSuperclass()) {
			if (type.getName().equals(className)) {
				return true;
			}
		}
		return false;
	}

}
