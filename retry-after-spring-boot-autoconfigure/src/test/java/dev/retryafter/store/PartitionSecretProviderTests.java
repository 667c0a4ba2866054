package dev.retryafter.store;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.InvalidAlgorithmParameterException;
import java.security.InvalidKeyException;
import java.security.Key;
import java.security.Provider;
import java.security.Security;
import java.security.spec.AlgorithmParameterSpec;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.MacSpi;
import javax.crypto.spec.SecretKeySpec;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A partition secret on a JCE provider whose HMAC cannot be copied, as some FIPS and PKCS#11
 * providers do: digests and signatures still work, and match the default provider's.
 */
class PartitionSecretProviderTests {

	private static final String SECRET = "0123456789abcdefghijklmnopqrstuvwxyz";

	private static final String PROVIDER = "NoCloneHmac";

	private String expectedDigest;

	private String expectedSignature;

	@BeforeEach
	void preferAProviderWithoutClone() throws Exception {
		// Computed on the default provider first, to compare with.
		PartitionSecret reference = PartitionSecret.of(SECRET);
		this.expectedDigest = digest(reference);
		this.expectedSignature = reference.sign("cooldown 1000 a http://127.0.0.1:8080");
		Security.insertProviderAt(new NoCloneProvider(), 1);
		assertThat(Mac.getInstance("HmacSHA256").getProvider().getName()).isEqualTo(PROVIDER);
	}

	@AfterEach
	void removeProvider() {
		Security.removeProvider(PROVIDER);
	}

	@Test
	void whenTheProvidersMacCannotBeClonedThenDigestsAndSignaturesStillWork() throws Exception {
		Mac mac = Mac.getInstance("HmacSHA256");
		mac.init(new SecretKeySpec(new byte[32], "HmacSHA256"));
		assertThatExceptionOfType(CloneNotSupportedException.class).isThrownBy(mac::clone);

		PartitionSecret secret = PartitionSecret.of(SECRET);
		assertThat(digest(secret)).isEqualTo(this.expectedDigest);
		assertThat(digest(secret)).isEqualTo(this.expectedDigest);
		String signature = secret.sign("cooldown 1000 a http://127.0.0.1:8080");
		assertThat(signature).isEqualTo(this.expectedSignature);
		assertThat(secret.verify("cooldown 1000 a http://127.0.0.1:8080", signature)).isTrue();
		assertThat(NoCloneSpi.instances).isPositive();
	}

	private static String digest(PartitionSecret secret) {
		return HexFormat.of().formatHex(secret.partitionHash().hash(new byte[] { 1, 2, 3 }));
	}

	private static final class NoCloneProvider extends Provider {

		NoCloneProvider() {
			super(PROVIDER, "1.0", "HmacSHA256 whose Mac cannot be cloned");
			put("Mac.HmacSHA256", NoCloneSpi.class.getName());
		}

	}

	/**
	 * HmacSHA256 of the JDK's own provider, behind a MacSpi that is not {@link Cloneable}.
	 */
	public static final class NoCloneSpi extends MacSpi {

		static volatile int instances;

		private final Mac delegate;

		public NoCloneSpi() throws GeneralSecurityException {
			this.delegate = Mac.getInstance("HmacSHA256", "SunJCE");
			instances++;
		}

		@Override
		protected int engineGetMacLength() {
			return this.delegate.getMacLength();
		}

		@Override
		protected void engineInit(Key key, AlgorithmParameterSpec params)
				throws InvalidKeyException, InvalidAlgorithmParameterException {
			this.delegate.init(key, params);
		}

		@Override
		protected void engineUpdate(byte input) {
			this.delegate.update(input);
		}

		@Override
		protected void engineUpdate(byte[] input, int offset, int len) {
			this.delegate.update(input, offset, len);
		}

		@Override
		protected void engineUpdate(ByteBuffer input) {
			this.delegate.update(input);
		}

		@Override
		protected byte[] engineDoFinal() {
			return this.delegate.doFinal();
		}

		@Override
		protected void engineReset() {
			this.delegate.reset();
		}

	}

}
